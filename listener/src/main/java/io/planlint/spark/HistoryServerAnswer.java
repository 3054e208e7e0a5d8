package io.planlint.spark;

import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import org.apache.spark.JobExecutionStatus;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkContext$;
import org.apache.spark.sql.execution.ui.SQLAppStatusListener;
import org.apache.spark.sql.execution.ui.SQLAppStatusStore;
import org.apache.spark.sql.execution.ui.SQLExecutionUIData;
import org.apache.spark.sql.execution.ui.SQLPlanMetric;
import org.apache.spark.sql.execution.ui.SparkPlanGraph;
import org.apache.spark.sql.execution.ui.SparkPlanGraphCluster;
import org.apache.spark.sql.execution.ui.SparkPlanGraphEdge;
import org.apache.spark.sql.execution.ui.SparkPlanGraphNode;
import scala.Option;
import scala.Tuple2;

/**
 * One SQL execution as the History Server's {@code /api/v1/applications/APP/sql/ID?details=true}
 * answers it (Spark's {@code SqlResource.prepareExecutionData} / {@code printableMetrics}), built
 * from the driver's own SQL status store: the final (AQE) {@code planDescription}, the SQL tab's
 * graph ({@code nodes} with their metric display strings, {@code edges} child to parent).
 *
 * <p>Binary compatibility (one jar for Scala 2.12 and 2.13): every Spark method called here has
 * the same descriptor in Spark 3.5 and 4.x (checked with javap on both), and Scala collections are
 * only walked through {@code scala.collection.Iterable.iterator()}, {@code Iterator}, {@code
 * Tuple2} and {@code Option}, whose descriptors did not change between the two Scala lines.
 */
final class HistoryServerAnswer {
  private HistoryServerAnswer() {}

  /** Thrown when the store has no data for the execution (too old, or not a store we know). */
  static final class Unavailable extends Exception {
    private static final long serialVersionUID = 1L;

    Unavailable(String why) {
      super(why);
    }
  }

  /** The active SparkContext's SQL status store (a read-only view over its KVStore). */
  static SQLAppStatusStore store() throws Unavailable {
    Option<SparkContext> sc = SparkContext$.MODULE$.getActive();
    if (sc.isEmpty()) throw new Unavailable("no active SparkContext");
    Option<SQLAppStatusListener> none = Option.apply(null);
    return new SQLAppStatusStore(sc.get().statusStore().store(), none);
  }

  /**
   * Waits (until {@code deadline}, System.nanoTime) for Spark to store the execution's final
   * metric values (SQLAppStatusListener aggregates them asynchronously after the end event), then
   * returns the answer's JSON. Without metrics by then it still answers, with no metric values.
   */
  static String build(SQLAppStatusStore store, long executionId, long deadline) throws Unavailable {
    SQLExecutionUIData data = null;
    while (true) {
      Option<SQLExecutionUIData> o;
      try {
        o = store.execution(executionId);
      } catch (RuntimeException e) {
        throw new Unavailable("the SQL status store cannot be read: " + e);
      }
      if (o.isDefined()) {
        data = o.get();
        if (data.metricValues() != null) break;
      }
      if (System.nanoTime() - deadline >= 0) break;
      try {
        Thread.sleep(25);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    if (data == null) throw new Unavailable("execution " + executionId + " is not in the SQL status store");
    SparkPlanGraph graph;
    try {
      graph = store.planGraph(executionId);
    } catch (RuntimeException e) {
      throw new Unavailable("no plan graph for execution " + executionId + ": " + e);
    }
    Map<Long, String> values = new HashMap<>();
    if (data.metricValues() != null) {
      for (scala.collection.Iterator<?> it = iterator(data.metricValues()); it.hasNext(); ) {
        Tuple2<?, ?> kv = (Tuple2<?, ?>) it.next();
        if (kv._1() instanceof Number && kv._2() instanceof String) {
          values.put(((Number) kv._1()).longValue(), (String) kv._2());
        }
      }
    }
    return json(data, graph, values);
  }

  private static scala.collection.Iterator<?> iterator(Object scalaIterable) {
    return ((scala.collection.Iterable<?>) scalaIterable).iterator();
  }

  private static final class Node {
    final SparkPlanGraphNode node;
    final Integer wholeStageCodegenId;

    Node(SparkPlanGraphNode node, Integer wholeStageCodegenId) {
      this.node = node;
      this.wholeStageCodegenId = wholeStageCodegenId;
    }
  }

  /** "WholeStageCodegen (3)" -> 3, as SqlResource.getNodeIdAndWSCGIdMap. */
  private static Integer codegenId(String clusterName) {
    String n = clusterName == null ? "" : clusterName.trim();
    int open = n.lastIndexOf('(');
    int close = n.lastIndexOf(')');
    if (!n.startsWith("WholeStageCodegen") || open < 0 || close < open) return null;
    try {
      return Integer.parseInt(n.substring(open + 1, close).trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static String json(SQLExecutionUIData data, SparkPlanGraph graph, Map<Long, String> values) {
    // graph.allNodes: each cluster's children, then the cluster itself.
    List<Node> nodes = new ArrayList<>();
    for (scala.collection.Iterator<?> it = iterator(graph.nodes()); it.hasNext(); ) {
      SparkPlanGraphNode n = (SparkPlanGraphNode) it.next();
      if (n instanceof SparkPlanGraphCluster) {
        Integer wscg = codegenId(n.name());
        for (scala.collection.Iterator<?> c = iterator(((SparkPlanGraphCluster) n).nodes()); c.hasNext(); ) {
          nodes.add(new Node((SparkPlanGraphNode) c.next(), wscg));
        }
      }
      nodes.add(new Node(n, null));
    }
    nodes.sort((a, b) -> Long.compare(b.node.id(), a.node.id()));

    List<Long> running = new ArrayList<>();
    List<Long> succeeded = new ArrayList<>();
    List<Long> failed = new ArrayList<>();
    if (data.jobs() != null) {
      for (scala.collection.Iterator<?> it = iterator(data.jobs()); it.hasNext(); ) {
        Tuple2<?, ?> kv = (Tuple2<?, ?>) it.next();
        if (!(kv._1() instanceof Number)) continue;
        long job = ((Number) kv._1()).longValue();
        if (kv._2() == JobExecutionStatus.RUNNING) running.add(job);
        else if (kv._2() == JobExecutionStatus.SUCCEEDED) succeeded.add(job);
        else if (kv._2() == JobExecutionStatus.FAILED) failed.add(job);
      }
    }
    running.sort(null);
    succeeded.sort(null);
    failed.sort(null);
    Option<Date> done = data.completionTime();
    boolean error = data.errorMessage() != null && data.errorMessage().isDefined();
    String status = done == null || done.isEmpty() ? "RUNNING" : (error || !failed.isEmpty() ? "FAILED" : "COMPLETED");
    long end = done == null || done.isEmpty() ? System.currentTimeMillis() : done.get().getTime();

    StringBuilder b = new StringBuilder(4096 + (data.physicalPlanDescription() == null ? 0 : data.physicalPlanDescription().length()));
    b.append("{\"id\": ").append(data.executionId());
    b.append(", \"status\": ");
    Json.quote(b, status);
    b.append(", \"description\": ");
    Json.quote(b, data.description() == null ? "" : data.description());
    b.append(", \"planDescription\": ");
    Json.quote(b, data.physicalPlanDescription() == null ? "" : data.physicalPlanDescription());
    SimpleDateFormat gmt = new SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss.SSS'GMT'", Locale.US);
    gmt.setTimeZone(TimeZone.getTimeZone("UTC"));
    b.append(", \"submissionTime\": ");
    Json.quote(b, gmt.format(new Date(data.submissionTime())));
    b.append(", \"duration\": ").append(Math.max(0, end - data.submissionTime()));
    b.append(", \"runningJobIds\": ").append(running);
    b.append(", \"successJobIds\": ").append(succeeded);
    b.append(", \"failedJobIds\": ").append(failed);
    b.append(", \"nodes\": [");
    boolean first = true;
    for (Node n : nodes) {
      if (!first) b.append(", ");
      first = false;
      b.append("{\"nodeId\": ").append(n.node.id()).append(", \"nodeName\": ");
      Json.quote(b, n.node.name() == null ? "" : n.node.name().trim());
      if (n.wholeStageCodegenId != null) b.append(", \"wholeStageCodegenId\": ").append(n.wholeStageCodegenId);
      b.append(", \"metrics\": [");
      boolean firstMetric = true;
      for (scala.collection.Iterator<?> it = iterator(n.node.metrics()); it.hasNext(); ) {
        SQLPlanMetric m = (SQLPlanMetric) it.next();
        String v = values.get(m.accumulatorId());
        if (v == null) continue; // printableMetrics leaves metrics without a value out
        if (v.startsWith("\n")) v = v.substring(1);
        if (!firstMetric) b.append(", ");
        firstMetric = false;
        b.append("{\"name\": ");
        Json.quote(b, m.name() == null ? "" : m.name().trim());
        b.append(", \"value\": ");
        Json.quote(b, v);
        b.append('}');
      }
      b.append("]}");
    }
    b.append("], \"edges\": [");
    first = true;
    for (scala.collection.Iterator<?> it = iterator(graph.edges()); it.hasNext(); ) {
      SparkPlanGraphEdge e = (SparkPlanGraphEdge) it.next();
      if (!first) b.append(", ");
      first = false;
      b.append("{\"fromId\": ").append(e.fromId()).append(", \"toId\": ").append(e.toId()).append('}');
    }
    b.append("]}");
    return b.toString();
  }
}

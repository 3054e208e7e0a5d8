package io.planlint.spark;

import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.SparkConf;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerApplicationEnd;
import org.apache.spark.scheduler.SparkListenerApplicationStart;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.sql.execution.ui.SparkListenerSQLAdaptiveExecutionUpdate;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * planlint-spark: lints every SQL execution of the application when it ends.
 *
 * <p>Register with {@code spark.extraListeners=io.planlint.spark.PlanlintListener}. The listener
 * bus thread only records the plan text and puts the execution id in a bounded queue (O(1), never
 * blocking: when the queue is full the execution is dropped and counted). A single daemon thread
 * ({@link Checker}) does the work: it builds the History-Server-shaped answer of the execution from
 * the driver's SQL status store and runs the planlint binary on it within a time budget. No
 * exception leaves any method of this class.
 */
public class PlanlintListener extends SparkListener {
  static final Logger LOG = LoggerFactory.getLogger(PlanlintListener.class);
  /** Executions whose text we keep while they run, at most (the rest are checked from the store). */
  private static final int MAX_RUNNING = 10_000;

  private final Settings settings;
  private final ArrayBlockingQueue<Checker.Task> queue;
  private final Map<Long, String> planText = new ConcurrentHashMap<>();
  final Counters counters = new Counters();
  private volatile String appId;
  private volatile Checker checker;
  private volatile boolean ended;

  /** Counters reported at application end. */
  static final class Counters {
    final AtomicLong queued = new AtomicLong();
    final AtomicLong dropped = new AtomicLong();
    final AtomicLong checked = new AtomicLong();
    final AtomicLong findings = new AtomicLong();
    final AtomicLong textOnly = new AtomicLong();
    final AtomicLong unreadable = new AtomicLong();
    final AtomicLong timedOut = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final AtomicLong skipped = new AtomicLong();
    /** Executions being checked when application end stopped the checker (their planlint killed). */
    final AtomicLong abandoned = new AtomicLong();
  }

  public PlanlintListener(SparkConf conf) {
    Settings s = null;
    try {
      s = new Settings(conf);
    } catch (Throwable t) {
      safeLog("planlint: disabled, its settings cannot be read: " + t);
    }
    settings = s;
    queue = new ArrayBlockingQueue<>(s == null ? 1 : s.queueSize);
    try {
      if (s != null) appId = conf.get("spark.app.id", null);
    } catch (Throwable t) {
      // the application start event brings it too
    }
  }

  public PlanlintListener() {
    this(new SparkConf());
  }

  private boolean active() {
    return settings != null && settings.enabled && !ended;
  }

  @Override
  public void onApplicationStart(SparkListenerApplicationStart event) {
    try {
      if (event.appId().isDefined()) appId = event.appId().get();
    } catch (Throwable t) {
      // keep the one from the conf
    }
  }

  @Override
  public void onOtherEvent(SparkListenerEvent event) {
    try {
      if (!active()) return;
      if (event instanceof SparkListenerSQLExecutionStart) {
        SparkListenerSQLExecutionStart e = (SparkListenerSQLExecutionStart) event;
        if (planText.size() < MAX_RUNNING && e.physicalPlanDescription() != null) {
          planText.put(e.executionId(), e.physicalPlanDescription());
        }
      } else if (event instanceof SparkListenerSQLAdaptiveExecutionUpdate) {
        SparkListenerSQLAdaptiveExecutionUpdate e = (SparkListenerSQLAdaptiveExecutionUpdate) event;
        if (e.physicalPlanDescription() != null && planText.containsKey(e.executionId())) {
          planText.put(e.executionId(), e.physicalPlanDescription());
        }
      } else if (event instanceof SparkListenerSQLExecutionEnd) {
        long id = ((SparkListenerSQLExecutionEnd) event).executionId();
        String text = planText.remove(id);
        ensureChecker();
        if (queue.offer(new Checker.Task(id, text))) {
          counters.queued.incrementAndGet();
        } else {
          long n = counters.dropped.incrementAndGet();
          if (n == 1) {
            safeLog("planlint: queue full (spark.planlint.queueSize=" + settings.queueSize
                + "), execution " + id + " not checked; further drops are counted and reported at application end");
          }
        }
      }
    } catch (Throwable t) {
      safeLog("planlint: listener error (ignored): " + t);
    }
  }

  private synchronized void ensureChecker() {
    if (checker != null) return;
    Checker c = new Checker(settings, queue, counters, () -> appId);
    Thread th = new Thread(c, "planlint-listener");
    th.setDaemon(true);
    c.thread = th;
    th.start();
    checker = c;
  }

  @Override
  public void onApplicationEnd(SparkListenerApplicationEnd event) {
    try {
      if (settings == null || !settings.enabled || ended) return;
      ended = true;
      Checker c = checker;
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.drainMs);
      if (c != null) {
        while ((!queue.isEmpty() || c.busy) && System.nanoTime() - deadline < 0) {
          Thread.sleep(20);
        }
      }
      // Stop first (this kills a planlint still running and waits for the thread), then count: the
      // queue no longer moves, and the execution being checked, if any, is in `abandoned`.
      if (c != null) c.stop();
      long notChecked = queue.size() + counters.abandoned.get();
      queue.clear();
      String summary = "planlint: " + appId + ": checked " + counters.checked.get() + " SQL executions ("
          + counters.textOnly.get() + " from the plan text only), " + counters.findings.get() + " findings; dropped "
          + counters.dropped.get() + " (queue full), " + notChecked + " left unchecked at application end, "
          + counters.timedOut.get() + " over the time budget, " + counters.failed.get() + " planlint failures, "
          + counters.unreadable.get() + " not plans planlint reads, " + counters.skipped.get() + " too large";
      boolean bad = counters.dropped.get() + notChecked + counters.timedOut.get() + counters.failed.get() > 0;
      if (bad) LOG.warn(summary);
      else LOG.info(summary);
    } catch (Throwable t) {
      if (t instanceof InterruptedException) Thread.currentThread().interrupt();
      safeLog("planlint: listener error at application end (ignored): " + t);
    }
  }

  static void safeLog(String message) {
    try {
      LOG.warn(message);
    } catch (Throwable ignored) {
      // logging itself must not fail the listener bus
    }
  }
}

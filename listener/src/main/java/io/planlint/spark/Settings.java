package io.planlint.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkConf;
import scala.Tuple2;

/** The listener's Spark confs (`spark.planlint.*`), read once when Spark creates the listener. */
final class Settings {
  /** `spark.planlint.enabled` (default true): false makes the listener do nothing at all. */
  final boolean enabled;
  /** `spark.planlint.binary` (default `planlint`, looked up on the driver's PATH). */
  final String binary;
  /** `spark.planlint.output`: a file, or a folder (existing, or ending in `/`), or null. */
  final String output;
  /** `spark.planlint.select` / `.ignore`: rule codes, code prefixes or names, comma-separated. */
  final String select;
  final String ignore;
  /** `spark.planlint.set` (comma-separated) and every `spark.planlint.set.OPTION=VALUE`. */
  final List<String> thresholds = new ArrayList<>();
  /** `spark.planlint.config`: a planlint.toml; without it planlint runs with `--no-config`. */
  final String config;
  /** `spark.planlint.timeout` (default 10s): the whole budget of one execution's check. */
  final long timeoutMs;
  /** `spark.planlint.queueSize` (default 100): executions waiting; more are dropped and counted. */
  final int queueSize;
  /** `spark.planlint.drainTimeout` (default 5s): how long application end waits for the queue. */
  final long drainMs;
  /** `spark.planlint.metricsWait` (default 2s): how long to wait for Spark's final SQL metrics. */
  final long metricsWaitMs;
  /** `spark.planlint.maxPlanChars` (default 20,000,000): larger plans are not checked. */
  final long maxPlanChars;

  Settings(SparkConf conf) {
    enabled = conf.getBoolean("spark.planlint.enabled", true);
    binary = blankToNull(conf.get("spark.planlint.binary", "planlint"));
    output = blankToNull(conf.get("spark.planlint.output", ""));
    select = blankToNull(conf.get("spark.planlint.select", ""));
    ignore = blankToNull(conf.get("spark.planlint.ignore", ""));
    config = blankToNull(conf.get("spark.planlint.config", ""));
    String list = conf.get("spark.planlint.set", "");
    for (String s : list.split(",")) {
      if (!s.isBlank()) thresholds.add(s.trim());
    }
    for (Tuple2<String, String> kv : conf.getAllWithPrefix("spark.planlint.set.")) {
      thresholds.add(kv._1().trim() + "=" + kv._2().trim());
    }
    timeoutMs = Math.max(100, conf.getTimeAsMs("spark.planlint.timeout", "10s"));
    queueSize = Math.max(1, conf.getInt("spark.planlint.queueSize", 100));
    drainMs = Math.max(0, conf.getTimeAsMs("spark.planlint.drainTimeout", "5s"));
    metricsWaitMs = Math.max(0, conf.getTimeAsMs("spark.planlint.metricsWait", "2s"));
    maxPlanChars = Math.max(1, conf.getLong("spark.planlint.maxPlanChars", 20_000_000L));
  }

  /** planlint's command line: {@code check --format ndjson [rule options] -}. */
  List<String> command() {
    List<String> cmd = new ArrayList<>();
    cmd.add(binary == null ? "planlint" : binary);
    cmd.add("check");
    cmd.add("--format");
    cmd.add("ndjson");
    if (config != null) {
      cmd.add("--config");
      cmd.add(config);
    } else {
      cmd.add("--no-config");
    }
    if (select != null) {
      cmd.add("--select");
      cmd.add(select.replace(" ", ""));
    }
    if (ignore != null) {
      cmd.add("--ignore");
      cmd.add(ignore.replace(" ", ""));
    }
    for (String t : thresholds) {
      cmd.add("--set");
      cmd.add(t);
    }
    cmd.add("-");
    return cmd;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }
}

package io.planlint.spark;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.spark.sql.execution.ui.SQLAppStatusStore;

/**
 * The listener's one daemon thread: takes finished executions from the queue and checks each with
 * the planlint binary, within {@code spark.planlint.timeout} for the whole of it (waiting for the
 * final metrics, writing the input, planlint's run). A planlint that does not finish in time is
 * killed with its children. Nothing here can reach the query: the thread only reads the status
 * store and writes temporary files, the log and the output file.
 */
final class Checker implements Runnable {
  /** planlint's output (characters) beyond this is not read (a plan has a few dozen findings at most). */
  private static final long MAX_OUTPUT_CHARS = 16L << 20;
  /** How many failures of one kind are logged as warnings; later ones go to debug. */
  private static final int WARN_LIMIT = 3;

  static final class Task {
    final long executionId;
    final String planText;

    Task(long executionId, String planText) {
      this.executionId = executionId;
      this.planText = planText;
    }
  }

  private final Settings settings;
  private final ArrayBlockingQueue<Task> queue;
  private final PlanlintListener.Counters counters;
  private final Supplier<String> appId;
  private final AtomicInteger warnedTimeout = new AtomicInteger();
  private final AtomicInteger warnedFailure = new AtomicInteger();
  private final AtomicInteger warnedStore = new AtomicInteger();
  private final AtomicInteger warnedOutput = new AtomicInteger();
  volatile boolean busy;
  volatile Thread thread;
  private volatile boolean stopped;
  /** The planlint now running, if any: stop() kills it itself rather than leave it to this thread. */
  private volatile Process running;
  private boolean storeBroken;
  private SQLAppStatusStore store;
  private Path outputFile;

  Checker(Settings settings, ArrayBlockingQueue<Task> queue, PlanlintListener.Counters counters, Supplier<String> appId) {
    this.settings = settings;
    this.queue = queue;
    this.counters = counters;
    this.appId = appId;
  }

  /**
   * Stops the thread, and kills the planlint it is running (with its children) before returning:
   * application end is followed by the JVM's exit, which would otherwise leave a planlint still
   * within its time budget running after the driver, as an orphan.
   */
  void stop() {
    stopped = true;
    Thread t = thread;
    if (t != null) t.interrupt();
    Process p = running;
    if (p != null) kill(p);
    // The thread returns at once now (its planlint is dead); waiting for it makes the counters final.
    if (t != null && t != Thread.currentThread()) {
      try {
        t.join(2000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public void run() {
    while (!stopped) {
      Task task;
      try {
        task = queue.poll(200, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        return;
      }
      if (task == null) continue;
      busy = true;
      try {
        check(task);
      } catch (InterruptedException e) {
        counters.abandoned.incrementAndGet();   // stopped at application end while being checked
        return;
      } catch (Throwable t) {
        counters.failed.incrementAndGet();
        warn(warnedFailure, "planlint: checking execution " + task.executionId + " failed (ignored): " + t);
      } finally {
        busy = false;
      }
    }
  }

  private void check(Task task) throws InterruptedException {
    long start = System.nanoTime();
    long deadline = start + TimeUnit.MILLISECONDS.toNanos(settings.timeoutMs);
    String input = null;
    if (!storeBroken) {
      try {
        if (store == null) store = HistoryServerAnswer.store();
        long metricsDeadline = Math.min(deadline - (deadline - start) / 2,
            start + TimeUnit.MILLISECONDS.toNanos(settings.metricsWaitMs));
        input = HistoryServerAnswer.build(store, task.executionId, metricsDeadline);
      } catch (HistoryServerAnswer.Unavailable e) {
        warn(warnedStore, "planlint: execution " + task.executionId + ": checked from the plan text only ("
            + e.getMessage() + ")");
      } catch (LinkageError | RuntimeException e) {
        // A Spark whose SQL status store differs from the ones this jar was built for: use the text.
        storeBroken = true;
        warn(warnedStore, "planlint: the SQL status store of this Spark cannot be read (" + e
            + "); executions are checked from their plan text only, without metrics");
      }
    }
    if (input == null) {
      if (task.planText == null) {
        counters.unreadable.incrementAndGet();
        return;
      }
      input = task.planText;
      counters.textOnly.incrementAndGet();
    }
    if (input.length() > settings.maxPlanChars) {
      counters.skipped.incrementAndGet();
      return;
    }
    StringBuilder record = new StringBuilder(input.length() + 64);
    record.append("{\"id\": ").append(task.executionId).append(", \"text\": ");
    Json.quote(record, input);
    record.append("}\n");

    // Stopped while waiting for the metrics: counted as left unchecked, not as a failure of the
    // file writes below (an interrupted thread's NIO write throws ClosedByInterruptException).
    if (stopped) throw new InterruptedException("stopped");
    Path dir = null;
    try {
      dir = Files.createTempDirectory("planlint-listener-");
      File in = dir.resolve("in.ndjson").toFile();
      File out = dir.resolve("out.ndjson").toFile();
      File err = dir.resolve("err.txt").toFile();
      Files.write(in.toPath(), record.toString().getBytes(StandardCharsets.UTF_8));
      List<String> cmd = settings.command();
      ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
          .redirectInput(in).redirectOutput(out).redirectError(err);
      Process p;
      try {
        p = pb.start();
      } catch (IOException e) {
        counters.failed.incrementAndGet();
        warn(warnedFailure, "planlint: cannot run " + cmd.get(0) + " (set spark.planlint.binary or put planlint on the driver's PATH): " + e.getMessage());
        return;
      }
      // `running` is set before `stopped` is read, and stop() sets `stopped` before it reads
      // `running` (both volatile): whichever comes second sees the other, so the process is killed.
      running = p;
      boolean finished;
      try {
        if (stopped) throw new InterruptedException("stopped");
        long left = deadline - System.nanoTime();
        finished = left > 0 && p.waitFor(left, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        kill(p);
        throw e;
      }
      if (!finished) {
        kill(p);
        counters.timedOut.incrementAndGet();
        warn(warnedTimeout, "planlint: execution " + task.executionId + ": planlint took longer than spark.planlint.timeout ("
            + settings.timeoutMs + " ms) and was killed; the query was not affected");
        return;
      }
      if (p.exitValue() != 0) {
        counters.failed.incrementAndGet();
        warn(warnedFailure, "planlint: execution " + task.executionId + ": " + cmd.get(0) + " exited with status "
            + p.exitValue() + firstLine(err));
        return;
      }
      handleOutput(task, out);
    } catch (IOException e) {
      counters.failed.incrementAndGet();
      warn(warnedFailure, "planlint: execution " + task.executionId + ": " + e);
    } finally {
      running = null;
      deleteTree(dir);
    }
  }

  private void handleOutput(Task task, File out) throws IOException {
    String app = appId.get();
    StringBuilder lines = new StringBuilder();
    String prefix = "{\"appId\":" + Json.quote(app) + ",\"executionId\":" + task.executionId + ",";
    long read = 0;
    try (BufferedReader r = new BufferedReader(new InputStreamReader(Files.newInputStream(out.toPath()), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        read += line.length();
        if (read > MAX_OUTPUT_CHARS) break;
        line = line.trim();
        if (!line.startsWith("{") || !line.endsWith("}")) continue;
        Map<?, ?> rec;
        try {
          Object o = Json.parse(line);
          if (!(o instanceof Map)) continue;
          rec = (Map<?, ?>) o;
        } catch (IllegalArgumentException e) {
          continue;
        }
        Object type = rec.get("type");
        if ("finding".equals(type)) {
          counters.findings.incrementAndGet();
          logFinding(rec);
        } else if ("done".equals(type)) {
          counters.checked.incrementAndGet();
        } else if ("error".equals(type)) {
          counters.unreadable.incrementAndGet();
          PlanlintListener.LOG.info("planlint: execution " + task.executionId + " not checked: " + oneLine(str(rec.get("error"))));
        }
        lines.append(prefix).append(line.length() > 2 ? line.substring(1) : "}").append('\n');
      }
    }
    if (settings.output != null && lines.length() > 0) append(app, lines.toString());
  }

  private void logFinding(Map<?, ?> rec) {
    String op = str(rec.get("operator"));
    String opId = str(rec.get("operator_id"));
    String where = op.isEmpty() ? "" : (opId.isEmpty() ? op : op + " (" + opId + ")");
    String fix = str(rec.get("fix"));
    // The execution as `planlint check` writes it before the message: "execution 3 (save at x.py:41): ".
    String execution = "";
    if (rec.get("execution") instanceof Map) {
      Map<?, ?> e = (Map<?, ?>) rec.get("execution");
      String description = str(e.get("description"));
      execution = "execution " + str(e.get("id")) + (description.isEmpty() ? "" : " (" + description + ")") + ": ";
    }
    PlanlintListener.LOG.warn("planlint " + str(rec.get("code")) + " " + str(rec.get("rule"))
        + (where.isEmpty() ? "" : " at " + where) + ": " + oneLine(execution + str(rec.get("message")))
        + (fix.isEmpty() ? "" : " | fix: " + oneLine(fix)));
  }

  private synchronized void append(String app, String text) {
    try {
      if (outputFile == null) {
        Path p = Paths.get(settings.output);
        if (settings.output.endsWith("/") || settings.output.endsWith(File.separator) || Files.isDirectory(p)) {
          Files.createDirectories(p);
          String name = (app == null ? "unknown-app" : app).replaceAll("[^A-Za-z0-9._-]", "_");
          p = p.resolve("planlint-" + name + ".ndjson");
        } else if (p.getParent() != null) {
          Files.createDirectories(p.getParent());
        }
        outputFile = p;
      }
      // One write per execution, appended: records of several drivers sharing a file do not interleave within a line.
      Files.write(outputFile, text.getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE,
          StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    } catch (IOException | RuntimeException e) {
      warn(warnedOutput, "planlint: cannot write spark.planlint.output (" + settings.output + "): " + e);
    }
  }

  /**
   * Kills {@code p} and its descendants. The descendants are killed first, in rounds until a round
   * finds no new one, so that a child forked while the first round was collected (a wrapper script
   * just started, say) is not left behind: once {@code p} is dead its children belong to init and
   * can no longer be found from it. Safe to call twice at once (stop() and the checker thread).
   */
  private static void kill(Process p) {
    try {
      Set<Long> killed = new HashSet<>();
      for (int round = 0; round < 8; round++) {
        List<ProcessHandle> found = p.toHandle().descendants().collect(Collectors.toList());
        boolean fresh = false;
        for (ProcessHandle h : found) {
          if (killed.add(h.pid())) fresh = true;
          h.destroyForcibly();
        }
        if (!fresh) break;
      }
      p.destroyForcibly();
      p.waitFor(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      // best effort
    }
  }

  private static String firstLine(File err) {
    try {
      byte[] b = Files.readAllBytes(err.toPath());
      String s = new String(b, 0, Math.min(b.length, 500), StandardCharsets.UTF_8).trim();
      int nl = s.indexOf('\n');
      if (nl >= 0) s = s.substring(0, nl);
      return s.isEmpty() ? "" : ": " + s;
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  private static void deleteTree(Path dir) {
    if (dir == null) return;
    File[] files = dir.toFile().listFiles();
    if (files != null) {
      for (File f : files) {
        if (!f.delete()) f.deleteOnExit();
      }
    }
    if (!dir.toFile().delete()) dir.toFile().deleteOnExit();
  }

  private static String str(Object o) {
    return o == null ? "" : o.toString();
  }

  private static String oneLine(String s) {
    return s.replace('\r', ' ').replace('\n', ' ');
  }

  private static void warn(AtomicInteger count, String message) {
    try {
      if (count.incrementAndGet() <= WARN_LIMIT) PlanlintListener.LOG.warn(message);
      else PlanlintListener.LOG.debug(message);
    } catch (Throwable ignored) {
      // never fail the checker on logging
    }
  }
}

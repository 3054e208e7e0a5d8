"""Structured streaming: rate source, watermark, windowed count into the memory sink; a few micro-batches with a state store."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {"spark.sql.shuffle.partitions": "2"}
def run(spark, data, out):
    import time
    rate = spark.readStream.format("rate").option("rowsPerSecond", 200).load()
    agg = rate.withWatermark("timestamp", "2 seconds").groupBy(F.window("timestamp", "1 second")).agg(F.count("*").alias("n"))
    q = agg.writeStream.format("memory").queryName("live_rate").outputMode("append") \
        .option("checkpointLocation", f"{data}/ckpt-{time.time_ns()}").trigger(processingTime="1 second").start()
    deadline = time.time() + 60
    while time.time() < deadline and len(q.recentProgress) < 4:
        time.sleep(0.5)
    q.stop()
    if out:
        with open(os.path.join(out, "explain-simple.txt"), "w") as fh:
            fh.write(q._jsq.explainInternal(False) + "\n")
        with open(os.path.join(out, "explain-extended.txt"), "w") as fh:
            fh.write(q._jsq.explainInternal(True) + "\n")
    return {"batches": len(q.recentProgress)}


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])

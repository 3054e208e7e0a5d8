"""Hot key (90% of 2M fact rows on key 0) in a sort-merge join, AQE off, broadcast disabled: one straggler task."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {"spark.sql.adaptive.enabled": "false", "spark.sql.autoBroadcastJoinThreshold": "-1", "spark.sql.shuffle.partitions": "8"}
def setup(spark, data):
    fact(spark, f"{data}/fact", 2_000_000, 1000, hot_share=0.9)
    dim(spark, f"{data}/dim", 1000)


def query(spark, data):
    f = spark.read.parquet(f"{data}/fact")
    d = spark.read.parquet(f"{data}/dim")
    return f.join(d, "k").groupBy("grp").agg(F.count("*").alias("n"), F.sum("v").alias("v"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])

"""A BROADCAST hint on a 1.5M-row side of random doubles (tens of MB, over 10x a 1 MB threshold): the hint forces an oversized broadcast."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {"spark.sql.autoBroadcastJoinThreshold": "1048576"}
def setup(spark, data):
    for name, seed in (("a", 1), ("b", 2)):
        spark.range(1_500_000, numPartitions=4).select(
            (F.col("id") * 7 % 1_500_000).alias("k"), F.rand(seed).alias(f"v_{name}"),
            F.randn(seed + 10).alias(f"w_{name}")).write.mode("overwrite").parquet(f"{data}/{name}")


def query(spark, data):
    a = spark.read.parquet(f"{data}/a")
    b = spark.read.parquet(f"{data}/b")
    return a.join(F.broadcast(b), "k").agg(F.count("*").alias("n"), F.sum("v_a").alias("s"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])

"""Near miss for every rule: AQE on, a tiny dimension broadcast by Spark itself, a pushed filter, pruned columns."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {}
def setup(spark, data):
    fact(spark, f"{data}/fact", 500_000, 100)
    dim(spark, f"{data}/dim", 100)


def query(spark, data):
    f = spark.read.parquet(f"{data}/fact").filter(F.col("s") == "s42")
    d = spark.read.parquet(f"{data}/dim")
    return f.join(d, "k").groupBy("grp").agg(F.sum("v").alias("v"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])

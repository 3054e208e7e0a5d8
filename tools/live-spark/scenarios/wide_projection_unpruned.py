"""Column pruning switched off (optimizer rule excluded): a 31-column scan of which a projection keeps 1 column and a random number."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {"spark.sql.optimizer.excludedRules": "org.apache.spark.sql.catalyst.optimizer.ColumnPruning"}
def setup(spark, data):
    spark.range(200_000, numPartitions=2).select("id", *[(F.col("id") * (i + 3) % 1000).alias(f"c{i}") for i in range(30)]) \
        .write.mode("overwrite").parquet(f"{data}/wide")


def query(spark, data):
    w = spark.read.parquet(f"{data}/wide")
    return w.withColumn("r", F.rand(7)).select("id", "r").agg(F.sum("id").alias("s"), F.max("r").alias("r"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])

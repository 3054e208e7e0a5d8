"""spark.sql.shuffle.partitions=1 and AQE off: a 3M-row aggregation by a high-cardinality key is shuffled into one partition."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {"spark.sql.shuffle.partitions": "1", "spark.sql.adaptive.enabled": "false"}
def setup(spark, data):
    spark.range(3_000_000, numPartitions=2).select((F.col("id") % 1_000_000).alias("k"), F.rand(1).alias("v")) \
        .write.mode("overwrite").parquet(f"{data}/t")


def query(spark, data):
    return spark.read.parquet(f"{data}/t").groupBy("k").agg(F.sum("v").alias("v")).agg(F.count("*").alias("n"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])

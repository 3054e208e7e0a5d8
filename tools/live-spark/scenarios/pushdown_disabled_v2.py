"""Parquet read through the DSv2 reader with spark.sql.parquet.filterPushdown=false: x = 42 stays in a Filter above the scan."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import fact, dim, events, main  # noqa: E402
from pyspark.sql import functions as F, Window  # noqa: E402,F401

CONF = {"spark.sql.sources.useV1SourceList": "", "spark.sql.parquet.filterPushdown": "false"}
def setup(spark, data):
    events(spark, f"{data}/events")


def query(spark, data):
    e = spark.read.parquet(f"{data}/events")
    return e.filter(F.col("x") == 42).agg(F.count("*").alias("n"), F.sum("v").alias("v"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])

"""The Iceberg table of iceberg_pushed_filter read with name LIKE '%42' (endswith: Spark's EndsWith, a
simple predicate on a bare column that Spark offers the source as a V2 ENDS_WITH predicate, and that
Parquet accepts as StringEndsWith). Iceberg converts STARTS_WITH but not ENDS_WITH, so it refuses it:
only name IS NOT NULL reaches the scan (BatchScan ... [filters=name IS NOT NULL, ...]) and Spark
evaluates EndsWith in the Filter above after every data file was read."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import ICEBERG_CONF, ICEBERG_PACKAGES, iceberg_table, main  # noqa: E402
from pyspark.sql import functions as F  # noqa: E402

SPARK_VERSIONS = ("3.5", "4.1")
PACKAGES = ICEBERG_PACKAGES
SETUP_CONF = ICEBERG_CONF
CONF = {}


def setup(spark, data):
    iceberg_table(spark, "lake.db.events")


def query(spark, data):
    return spark.table("lake.db.events").filter(F.col("name").endswith("42")).agg(F.count("*").alias("n"), F.sum("v").alias("v"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])

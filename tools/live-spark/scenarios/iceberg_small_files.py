"""An Iceberg table of 600 data files of 100 rows (a few KB) each, written by 600 tasks with the
table's write.distribution-mode=none (no shuffle before the write), scanned whole by a grouped sum."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import ICEBERG_CONF, ICEBERG_PACKAGES, main  # noqa: E402
from pyspark.sql import functions as F  # noqa: E402

SPARK_VERSIONS = ("3.5", "4.1")
PACKAGES = ICEBERG_PACKAGES
SETUP_CONF = ICEBERG_CONF
CONF = {}


def setup(spark, data):
    spark.range(60_000, numPartitions=600).select(F.col("id"), (F.col("id") % 50).alias("k"), F.rand(1).alias("v")) \
        .writeTo("lake.db.t").tableProperty("write.distribution-mode", "none").create()


def query(spark, data):
    return spark.table("lake.db.t").groupBy("k").agg(F.sum("v").alias("v"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])

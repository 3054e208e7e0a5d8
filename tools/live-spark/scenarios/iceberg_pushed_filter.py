"""An Iceberg table (iceberg-spark-runtime from Maven Central, a Hadoop catalog in a local warehouse
folder; Spark 3.5 only: no Iceberg runtime for Spark 4.3 is on Maven Central) read with x = 42 on a
bare long column: pushed into the Iceberg scan (BatchScan ... [filters=x IS NOT NULL, x = 42]), which
prunes data files by their column bounds; Spark keeps the Filter above it for the rows."""
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
    return spark.table("lake.db.events").filter(F.col("x") == 42).agg(F.count("*").alias("n"), F.sum("v").alias("v"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])

"""An Iceberg table (iceberg-spark-runtime from Maven Central, Spark 3.5 only here) in a Hadoop catalog, read through its DSv2 BatchScan with x = 42 (pushed) and upper(name) = 'N42' (not sargable)."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import main  # noqa: E402
from pyspark.sql import functions as F  # noqa: E402

SPARK_VERSIONS = ("3.5",)
PACKAGES = ["org.apache.iceberg:iceberg-spark-runtime-3.5_2.12:1.6.1"]
SETUP_CONF = {"spark.sql.extensions": "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions",
              "spark.sql.catalog.local": "org.apache.iceberg.spark.SparkCatalog",
              "spark.sql.catalog.local.type": "hadoop",
              "spark.sql.catalog.local.warehouse": "{data}/warehouse"}
CONF = {}


def setup(spark, data):
    spark.range(200_000, numPartitions=8).select(
        F.col("id"), (F.col("id") % 500).alias("x"), F.concat(F.lit("n"), (F.col("id") % 1000).cast("string")).alias("name"),
        F.rand(1).alias("v")).writeTo("local.db.events").using("iceberg").createOrReplace()


def query(spark, data):
    t = spark.table("local.db.events")
    return t.filter((F.col("x") == 42) & (F.upper("name") == "N42")).agg(F.count("*").alias("n"), F.sum("v").alias("v"))


if __name__ == "__main__":
    main([sys.argv[0], __file__] + sys.argv[1:])

#!/usr/bin/env bash
# The Spark job on a Spark standalone cluster started here: a master and two workers
# on loopback, from the pyspark distribution in PYTHON's environment (which must also
# hold the cairn module), so that every shuffle crosses executors. Stops the cluster
# when the job ends and prints the job's summary (_cairn.json: phase times, executor
# seconds and shuffle bytes per phase).
#
#   cairn-py/spark/standalone.sh PYTHON OUT INPUT... 
#   (env: WORKER_CORES, default 1; WORKER_MEMORY, default 4g; EXECUTOR_MEMORY, default 3g)
set -euo pipefail
py="$1"; out="$2"; shift 2
cores="${WORKER_CORES:-1}"; mem="${WORKER_MEMORY:-4g}"; emem="${EXECUTOR_MEMORY:-3g}"
here="$(cd "$(dirname "$0")" && pwd)"
SPARK_HOME="$("$py" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')"
export SPARK_HOME SPARK_LOCAL_IP=127.0.0.1 PYSPARK_PYTHON="$py" PYSPARK_DRIVER_PYTHON="$py"
logs="$(mktemp -d)"
"$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.master.Master \
  --host 127.0.0.1 --port 7077 --webui-port 8080 >"$logs/master.log" 2>&1 &
pids="$!"
trap 'kill $pids 2>/dev/null || true; wait 2>/dev/null || true' EXIT
for i in 1 2; do
  "$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.worker.Worker \
    --host 127.0.0.1 --cores "$cores" --memory "$mem" --webui-port $((8080 + i)) \
    --work-dir "$logs/work$i" spark://127.0.0.1:7077 >"$logs/worker$i.log" 2>&1 &
  pids="$pids $!"
done
for _ in $(seq 60); do
  n=$(grep -c "Registering worker" "$logs/master.log" || true)
  [ "$n" -ge 2 ] && break
  sleep 1
done
if [ "$(grep -c "Registering worker" "$logs/master.log" || true)" -lt 2 ]; then
  echo "error: the workers did not register; logs in $logs" >&2
  exit 1
fi
echo "standalone cluster: master spark://127.0.0.1:7077, 2 workers x $cores core(s); logs in $logs" >&2
"$py" "$here/cairn_spark.py" "$@" --out "$out" --master spark://127.0.0.1:7077 \
  --executor-memory "$emem"

#!/usr/bin/env bash
# The Slurm recipe, end to end, on a real Slurm: starts a one-node cluster
# on loopback (munged, slurmctld and slurmd from Debian's `slurm-wlm`, all
# in a scratch folder, none of the system's own daemons or files), submits
# docs/slurm/cells.sbatch as written (a small sweep: 3 array tasks,
# `--max-cells 3`, 45 trials), merges the shards with `cnpic experiment
# merge`, and compares the rows and the summary with the same sweep run
# unsharded; then runs docs/slurm/inputs.sbatch (`cnpic run --inputs
# --shard i/n`, 3 array tasks) and compares the outputs joined in task order
# with the unsharded run. Exit 0 only if they are byte for byte the same.
#
#   docs/slurm/check.sh [path/to/cnpic]     # default target/release/cnpic
#
# Needs root (slurmd runs jobs as their owner) and the packages
# `slurm-wlm` and `munge`; .ci/run installs them when missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cnpic="$(realpath "${1:-$root/target/release/cnpic}")"
sweep=(--max-cells 3)
tasks=3

for tool in munged slurmctld slurmd sbatch; do
    command -v "$tool" >/dev/null || { echo "check.sh: \`$tool\` is missing (apt-get install slurm-wlm munge)" >&2; exit 2; }
done

scratch="$(mktemp -d /tmp/cnpi-slurm.XXXXXX)"
chmod 700 "$scratch"
pids=()
stop() {
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$scratch"
}
trap stop EXIT

# Two ports on loopback for slurmctld and slurmd, away from the defaults.
ctld_port=$((20000 + RANDOM % 20000))
slurmd_port=$((ctld_port + 1))

# munge: a key of our own and a socket in the scratch folder.
mkdir -p "$scratch/munge"
chmod 700 "$scratch/munge"
head -c 1024 /dev/urandom > "$scratch/munge/key"
chmod 400 "$scratch/munge/key"
socket="$scratch/munge/socket"
munged --foreground --force --socket="$socket" --key-file="$scratch/munge/key" \
    --log-file="$scratch/munge/log" --pid-file="$scratch/munge/pid" \
    --seed-file="$scratch/munge/seed" 2>>"$scratch/munge/stderr" &
pids+=("$!")

cpus="$(nproc)"
mkdir -p "$scratch/state" "$scratch/spool"
conf="$scratch/slurm.conf"
cat > "$conf" <<CONF
ClusterName=cnpi-check
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$(id -un)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$scratch/state
SlurmdSpoolDir=$scratch/spool
SlurmctldPidFile=$scratch/slurmctld.pid
SlurmdPidFile=$scratch/slurmd.pid
SlurmctldLogFile=$scratch/slurmctld.log
SlurmdLogFile=$scratch/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=check Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$conf"

for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
slurmctld -D -i -f "$conf" 2>>"$scratch/slurmctld.stderr" &
pids+=("$!")
slurmd -D -N localhost -f "$conf" 2>>"$scratch/slurmd.stderr" &
pids+=("$!")
ready=""
for _ in $(seq 100); do
    if sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
        ready=yes
        break
    fi
    sleep 0.3
done
if [ -z "$ready" ]; then
    echo "check.sh: the one-node Slurm did not come up; its logs:" >&2
    tail -n 20 "$scratch"/*.log "$scratch"/*.stderr >&2 || true
    exit 1
fi

# The recipe as written, from a folder with nothing in it but a link to
# the binary; --wait returns when every array task has ended.
work="$scratch/work"
mkdir -p "$work"
CNPIC="$cnpic" sbatch --wait --chdir="$work" --array="1-$tasks" --cpus-per-task=1 \
    "$root/docs/slurm/cells.sbatch" "${sweep[@]}"
shards=("$work"/results/cells-shards/*/results.json)
if [ "${#shards[@]}" -ne "$tasks" ]; then
    echo "check.sh: ${#shards[@]} shards written, $tasks expected; logs:" >&2
    cat "$work"/slurm-cells-*.out >&2 || true
    exit 1
fi
"$cnpic" experiment merge "${shards[@]}" --out "$work/merged" >/dev/null
"$cnpic" experiment cells --seed 1 --seeds 5 "${sweep[@]}" --threads 1 --out "$work/whole" >/dev/null
for file in rows.csv summary.csv; do
    if ! cmp -s "$work/merged/$file" "$work/whole/$file"; then
        echo "check.sh: the merged $file differs from the unsharded run's:" >&2
        diff "$work/merged/$file" "$work/whole/$file" >&2 || true
        exit 1
    fi
done
echo "slurm check: $tasks array tasks through sbatch, merged; rows.csv ($(($(wc -l < "$work/whole/rows.csv") - 1)) rows) and summary.csv equal the unsharded run's"

# The --inputs recipe: 50 inputs (one of them bad, so one task ends with
# status 1 and its output still has every line) in $tasks blocks; the
# outputs concatenated in task order must equal the unsharded run's.
many="$scratch/many"
mkdir -p "$many"
for i in $(seq 0 49); do
    if [ "$i" -eq 17 ]; then
        echo '[1, "two"]'
    else
        echo "[$((i * 7 % 13)), $((i % 5)), $((i * 3 % 11)), $((i % 2))]"
    fi
done > "$many/in.jsonl"
CNPIC="$cnpic" sbatch --wait --chdir="$many" --array="1-$tasks" --cpus-per-task=1 \
    "$root/docs/slurm/inputs.sbatch" "$root/examples/quicksort.cnpi" "$many/in.jsonl" || true
for i in $(seq "$tasks"); do
    if [ ! -f "$many/results/inputs-shards/$i.jsonl" ]; then
        echo "check.sh: the --inputs task $i wrote no output; logs:" >&2
        cat "$many"/slurm-inputs-*.out >&2 || true
        exit 1
    fi
    cat "$many/results/inputs-shards/$i.jsonl"
done > "$many/joined.jsonl"
(cd "$root" && "$cnpic" run examples/quicksort.cnpi --inputs "$many/in.jsonl" --jobs 1 > "$many/whole.jsonl") || true
if [ "$(wc -l < "$many/whole.jsonl")" -ne 50 ] || ! cmp -s "$many/joined.jsonl" "$many/whole.jsonl"; then
    echo "check.sh: the --inputs shards joined differ from the unsharded run:" >&2
    diff "$many/joined.jsonl" "$many/whole.jsonl" >&2 || true
    exit 1
fi
echo "slurm check: --inputs in $tasks array tasks through sbatch; the outputs joined in task order equal the unsharded run's (50 lines)"

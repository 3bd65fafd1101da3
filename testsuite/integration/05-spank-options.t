#!/bin/bash
# --coalloc and --cosched through the cosched SPANK plugin on a real
# cluster: shown in --help, refused at submit with the bad token named and
# nothing queued, recorded with the job when valid.  In slurmstepd the
# shim goes in front of a user's LD_PRELOAD of any length, and a value
# beyond this node's limits (its plugstack.conf differs from the submit
# host's) never fails the step.
source "$(dirname "$0")/lib/tap.sh"
cluster_start --select coalloc

job_count() { scontrol show jobs -o 2>/dev/null | grep -c '^JobId=' ; }

help=$(sbatch --help 2>&1)
like "$help" "--coalloc=SIZES +\[cosched\]" "sbatch --help lists --coalloc"
like "$(tr -s ' \n' ' ' <<< "$help")" "SIZE@SITE pins a component .* or flex: the job's -N" \
     "  with every request form: sizes, SIZE@SITE and flex"
like "$help" "--cosched=MODE +\[cosched\]" "sbatch --help lists --cosched"
like "$(srun --help 2>&1)" "\[cosched\]" "srun --help lists the options"

# Each bad value: the command fails, names the token, queues nothing.
refuse() {	# token-regex command...
	local want=$1 before out rc; shift
	before=$(job_count)
	out=$(timeout 30 "$@" 2>&1 < /dev/null); rc=$?
	ok $((rc == 0 || rc == 124)) "$* fails"
	like "$out" "$want" "  and names the problem"
	is "$(job_count)" "$before" "  and queues nothing"
}
refuse "bad component size 'x' \(token 2 of \"4,x\"\)" sbatch --coalloc=4,x --wrap true
refuse "bad component size '0'" sbatch --coalloc=0 --wrap true
refuse "empty component size \(token 3" sbatch --coalloc=4,4, --wrap true
refuse "unknown mode 'gang'" sbatch --cosched=gang --wrap true
refuse "bad component size '-1'" salloc --coalloc=4,-1 true
refuse "unknown mode 'pb_sb'" salloc --cosched=pb_sb true
refuse "bad component size 'two'" srun --coalloc=two true
refuse "unknown mode 'fast'" srun --cosched=fast true

printf '#!/bin/bash\n#SBATCH --coalloc=2,zero\ntrue\n' > bad-directive.sh
refuse "bad component size 'zero'" sbatch bad-directive.sh

# Valid values are accepted and travel with the job to its environment.
id=$(submit --coalloc=02,2 --cosched=PB-SB -N 4 -o env.out \
	--wrap 'env | grep -E "^SLURM_SPANK_(COALLOC_SIZES|COSCHED_MODE)=" | sort')
ok $? "valid options are accepted"
wait_until 60 job_done "$id"
is "$(job_state "$id")" COMPLETED "the job runs"
is "$(paste -sd' ' env.out)" "SLURM_SPANK_COALLOC_SIZES=2,2 SLURM_SPANK_COSCHED_MODE=pb-sb" \
   "the job sees the canonical values"

id=$(submit -N 1 -o plain.out --wrap 'env | grep -c "^SLURM_SPANK_CO" || true')
wait_until 60 job_done "$id"
is "$(cat plain.out)" 0 "a job without the options records nothing"

out=$(srun -N 2 --cosched=none bash -c 'echo ok' 2>&1)
is "$(echo "$out" | grep -c '^ok$')" 2 "srun with --cosched=none runs normally"

# A user's LD_PRELOAD over 2 KiB was dropped for the shim alone.
SHIM=$BUILD_DIR/lib/libcosched_mpi.so
libm=$(ldconfig -p | awk '/libm\.so\.6 .*x86-64/ { print $NF; exit }')
user_preload=$(for i in {1..120}; do printf '%s:' "$libm"; done)
out=$(LD_PRELOAD=$user_preload timeout 60 srun -N 1 --cosched=sb \
	bash -c 'printf "%s\n" "$LD_PRELOAD"' 2>&1)
is "$out" "$SHIM $user_preload" \
   "a user's LD_PRELOAD of ${#user_preload} bytes is kept whole behind the shim"

# srun checks --cosched-spin against a laxer plugstack.conf than the
# nodes' (max_spin_us 100000, theirs 10000): slurmstepd used to refuse the
# forwarded value and fail the step; it cuts it to the node's limit.
etc=$TEST_DIR/cluster/etc
sed "s|^PlugStackConfig=.*|PlugStackConfig=$etc/lax-plugstack.conf|" \
	"$SLURM_CONF" > "$etc/lax-slurm.conf"
sed '/^required/ s|$| max_spin_us=100000|' "$etc/plugstack.conf" \
	> "$etc/lax-plugstack.conf"
out=$(SLURM_CONF=$etc/lax-slurm.conf timeout 60 srun -N 1 --cosched=sb \
	--cosched-spin=50000 bash -c 'echo "spin=$COSCHED_SPIN_NS"' 2>&1)
ok $? "a spin time beyond the node's limit: the step runs"
like "$out" "^spin=10000000\$" "  with it cut to the node's max_spin_us ($out)"

# A mode the nodes do not allow (srun allows it): slurmstepd refused the
# option, so the step fell back to the nodes' default_mode; it runs
# without coscheduling, as cosched(8) says.
cp "$etc/plugstack.conf" "$etc/plugstack.conf.orig"
sed -i '/^required/ s|$| allowed_modes=sb default_mode=sb|' "$etc/plugstack.conf"
out=$(SLURM_CONF=$etc/lax-slurm.conf timeout 60 srun -N 1 --cosched=dcs \
	bash -c 'echo "wait=${COSCHED_WAIT:-none}"' 2>&1)
ok $? "a mode the node does not allow: the step runs"
like "$out" "^wait=none\$" "  without coscheduling, not in the default mode ($out)"
mv "$etc/plugstack.conf.orig" "$etc/plugstack.conf"

done_testing

#!/bin/bash
# --coalloc and --cosched through the cosched SPANK plugin on a real
# cluster: shown in --help, refused at submit with the bad token named and
# nothing queued, recorded with the job when valid.
source "$(dirname "$0")/lib/tap.sh"
cluster_start --select coalloc

job_count() { scontrol show jobs -o 2>/dev/null | grep -c '^JobId=' ; }

help=$(sbatch --help 2>&1)
like "$help" "--coalloc=SIZES +\[cosched\]" "sbatch --help lists --coalloc"
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

done_testing

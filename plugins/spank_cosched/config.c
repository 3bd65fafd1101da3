/*
 * config.c - the plugstack.conf arguments of this process, parsed once
 * by slurm_spank_init and read by every topic file: a leaf, so that no
 * topic file needs the entry file.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "cosched_proto/args.h"
#include "cosched.h"

static struct cosched_args config;

int cosched_config_load(int ac, char **av, char *err, size_t err_len)
{
	return cosched_args_parse(ac, av, &config, err, err_len);
}

const struct cosched_args *cosched_config(void)
{
	return &config;
}

/*
 * mix.h - ESP job mixes: loading a mix file, and scaling it to a machine.
 *
 * A mix file lists job classes in Slurm's Key=Value style (see esp(1)):
 *
 *   Mix=esp1 Processors=512
 *   Class=md Size=8 Count=4 Time=1208.0
 *   Class=A Fraction=0.03125 Count=75 Time=267 Light=22
 *
 * Size is in processors out of Processors (ESP-1, Table III of Wong et
 * al.); Fraction is the share of the machine (ESP-2).  A class of the
 * whole machine is a full-configuration (Z) class.
 *
 * Scaling to P processors (the rounding rule, esp(1)): a class of
 * fraction f gets  size = clamp(round(f P), 1, P)  processors and its time
 * is stretched by  f P / size,  so its CPU-seconds are exactly those of
 * the mix scaled to P (the work profile is kept; only the later rounding
 * of times to milliseconds perturbs it, by far less than the stated
 * tolerance ESP_PROFILE_TOLERANCE).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ESP_MIX_H
#define ESP_MIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ESP_NAME_MAX 32
#define ESP_ERR_LEN 256
#define ESP_MAX_CLASSES 64

/* Relative deviation of any class's CPU-seconds after scaling. */
#define ESP_PROFILE_TOLERANCE 0.01

struct esp_class {
	char name[ESP_NAME_MAX];
	double fraction;	/* share of the machine, (0, 1] */
	unsigned count;
	double seconds;		/* run time on the reference machine */
	double light;		/* "Light-ESP" run time, 0 when none */
	bool full;		/* full-configuration job (fraction 1) */
};

struct esp_mix {
	char name[ESP_NAME_MAX];
	double processors;	/* reference machine size (informative) */
	bool has_light;		/* every class has a Light= time */
	size_t nclasses;
	struct esp_class classes[ESP_MAX_CLASSES];
};

/*
 * Parse a mix file's text; file names it in messages ("FILE line N: key
 * 'K': ...").  Returns 0, or -1 with err set and *mix emptied.
 */
int esp_mix_parse(const char *text, const char *file, struct esp_mix *mix,
		  char *err, size_t errlen);

/* Read and parse a file. */
int esp_mix_load(const char *path, struct esp_mix *mix, char *err,
		 size_t errlen);

/* Job count of the mix, and of its full-configuration classes. */
size_t esp_mix_jobs(const struct esp_mix *mix);
size_t esp_mix_full_jobs(const struct esp_mix *mix);

/*
 * The mix's work in machine-seconds: sum of count * fraction * time (the
 * light times when light).  It is also the theoretical minimum time on
 * any machine size, with perfect packing.
 */
double esp_mix_min_time(const struct esp_mix *mix, bool light);

/* One class scaled to P processors by the rounding rule above. */
struct esp_scaled {
	uint32_t size;		/* processors */
	double seconds;		/* stretched run time (uncompressed) */
};
struct esp_scaled esp_class_scale(const struct esp_class *c, uint32_t procs,
				  bool light);

#endif /* ESP_MIX_H */

/*
 * fuzz_esp_mix.c - ESP mix files (lib/esp/mix.c), read by esp(1),
 * esp-sim(1) and the driver from a path a user gives.
 *
 * Promises checked: an error is a message and an empty mix; a success
 * has 1..ESP_MAX_CLASSES named classes with fractions in (0, 1], counts
 * and times > 0, Light for all or none, and scales to any machine size
 * into 1..P processors with a time that is a number >= 0.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz.h"

#include <math.h>

#include "esp/mix.h"

static void _check_class(const struct esp_class *c, bool light)
{
	static const uint32_t sizes[] = { 1, 7, 512, 100000, UINT32_MAX };

	FUZZ_CHECK(c->name[0] && strnlen(c->name, ESP_NAME_MAX) < ESP_NAME_MAX);
	FUZZ_CHECK(c->fraction > 0 && c->fraction <= 1);
	FUZZ_CHECK(c->count >= 1 && c->seconds > 0 && isfinite(c->seconds));
	FUZZ_CHECK(light ? c->light > 0 : c->light == 0);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct esp_scaled s = esp_class_scale(c, sizes[i], light);

		FUZZ_CHECK(s.size >= 1 && s.size <= sizes[i]);
		/* not finite: Time= takes any double (see doc/security.md) */
		FUZZ_CHECK(!isnan(s.seconds) && s.seconds >= 0);
		FUZZ_CHECK(!c->full || s.size == sizes[i]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), err[ESP_ERR_LEN];
	static struct esp_mix mix;	/* large: not on the stack */

	if (esp_mix_parse(text, "fuzz.mix", &mix, err, sizeof(err))) {
		FUZZ_CHECK(fuzz_message_ok(err, sizeof(err)));
		FUZZ_CHECK(mix.nclasses == 0 && !mix.name[0]);
	} else {
		FUZZ_CHECK(mix.name[0]);
		FUZZ_CHECK(mix.nclasses >= 1 && mix.nclasses <= ESP_MAX_CLASSES);
		for (size_t i = 0; i < mix.nclasses; i++)
			_check_class(&mix.classes[i], mix.has_light);
		FUZZ_CHECK(esp_mix_full_jobs(&mix) <= esp_mix_jobs(&mix));
		FUZZ_CHECK(esp_mix_min_time(&mix, false) >= 0);
	}
	free(text);
	return 0;
}

# lib/num - strict number parsing, checked text files and the parsers'
# error buffer (errbuf.h), shared by every component (pure C).  LIBNUM is defined in the Makefile, before the
# modules, since modules included earlier than this one link it.
#
# SPDX-License-Identifier: GPL-2.0-or-later

$(eval $(call static_lib,$(LIBNUM),lib/num/num.c lib/num/text.c \
	lib/num/stats.c lib/num/search.c lib/num/errbuf.c lib/num/cli.c))
TARGETS += $(LIBNUM)

$(eval $(call unit_test,num/test_num,testsuite/unit/num/test_num.c,$(LIBNUM),))
$(eval $(call unit_test,num/test_text,testsuite/unit/num/test_text.c,$(LIBNUM),))
$(eval $(call unit_test,num/test_stats,testsuite/unit/num/test_stats.c,$(LIBNUM),-lm))
$(eval $(call unit_test,num/test_search,testsuite/unit/num/test_search.c,$(LIBNUM),))
$(eval $(call unit_test,num/test_errbuf,testsuite/unit/num/test_errbuf.c,$(LIBNUM),))
$(eval $(call unit_test,num/test_cli,testsuite/unit/num/test_cli.c,$(LIBNUM),-lm))

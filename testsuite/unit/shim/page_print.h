/*
 * page_print.h - the shim tests' page printer (page_print.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_TEST_PAGE_PRINT_H
#define COALLOC_TEST_PAGE_PRINT_H

void print_page(int rank);
void print_page_f(const int *rank);

#endif

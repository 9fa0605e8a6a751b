#pragma once
#include <stddef.h>

struct buffer;
int append(struct buffer *b, const char *s, size_t n);

#include <stdio.h>
#include <stdlib.h>
#include "buffer.h"

typedef struct {
    char *data;
    size_t len;
} Buffer;

struct node {
    struct node *next;
};

enum mode { READ, WRITE };

static char *grow(Buffer *b, size_t n) {
    b->data = realloc(b->data, b->len + n);
    return b->data;
}

int append(Buffer *b, const char *s, size_t n) {
    if (!grow(b, n)) {
        return -1;
    }
    b->len += n;
    return 0;
}

int main(void) {
    Buffer b = {0};
    append(&b, "hi", 2);
    printf("%zu\n", b.len);
    return 0;
}

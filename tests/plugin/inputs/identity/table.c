/* An open-addressing string hash table: malloc, strings, switch, goto,
 * static data, a user annotate attribute (must pass through untouched). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct entry {
  char *key;
  int value;
};

struct table {
  struct entry *slots;
  size_t cap, len;
};

static const uint32_t fnv_prime = 16777619u;

__attribute__((annotate("user.hash"))) static uint32_t hash(const char *s) {
  uint32_t h = 2166136261u;
  while (*s)
    h = (h ^ (unsigned char)*s++) * fnv_prime;
  return h;
}

int table_init(struct table *t, size_t cap) {
  t->slots = calloc(cap, sizeof *t->slots);
  if (!t->slots)
    return -1;
  t->cap = cap;
  t->len = 0;
  return 0;
}

int table_put(struct table *t, const char *key, int value) {
  if (2 * (t->len + 1) > t->cap)
    return -1;
  size_t i = hash(key) & (t->cap - 1);
  for (;;) {
    struct entry *e = &t->slots[i];
    if (!e->key) {
      e->key = strdup(key);
      if (!e->key)
        goto oom;
      t->len++;
      break;
    }
    if (strcmp(e->key, key) == 0)
      break;
    i = (i + 1) & (t->cap - 1);
  }
  t->slots[i].value = value;
  return 0;
oom:
  return -2;
}

const char *describe(int code) {
  switch (code) {
  case 0:
    return "ok";
  case -1:
    return "full";
  case -2:
    return "out of memory";
  default:
    return "unknown";
  }
}

void table_free(struct table *t) {
  for (size_t i = 0; i < t->cap; i++)
    free(t->slots[i].key);
  free(t->slots);
}

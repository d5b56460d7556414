/* A minimal PNG writer (8-bit RGB, uncompressed deflate blocks): enough to
 * look at a rendered image without any library.
 *
 * Usage: bd_png_write("out.png", width, height, rgb) with rgb holding
 * width * height * 3 bytes, rows top to bottom; returns 0 on success. */
#ifndef BD_EXAMPLE_PNG_H
#define BD_EXAMPLE_PNG_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A PNG chunk under construction; crc over type and data. */
typedef struct {
  uint32_t table[256];
  uint32_t crc;
  FILE *f;
} bd_png;

static void bd_png_u32(FILE *f, uint32_t v) {
  unsigned char b[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16),
                        (unsigned char)(v >> 8), (unsigned char)v};
  fwrite(b, 1, 4, f);
}

static void bd_png_bytes(bd_png *p, const unsigned char *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    p->crc = p->table[(p->crc ^ b[i]) & 0xff] ^ (p->crc >> 8);
  fwrite(b, 1, n, p->f);
}

static void bd_png_begin(bd_png *p, const char *type, uint32_t len) {
  bd_png_u32(p->f, len);
  p->crc = 0xffffffffu;
  bd_png_bytes(p, (const unsigned char *)type, 4);
}

static void bd_png_end(bd_png *p) { bd_png_u32(p->f, p->crc ^ 0xffffffffu); }

static int bd_png_write(const char *path, int w, int h,
                        const unsigned char *rgb) {
  bd_png p;
  for (uint32_t n = 0; n < 256; n++) { /* CRC-32, polynomial 0xedb88320 */
    uint32_t c = n;
    for (int k = 0; k < 8; k++)
      c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    p.table[n] = c;
  }
  size_t row = (size_t)w * 3 + 1, raw = row * (size_t)h;
  unsigned char *z = malloc(raw);
  if (!z || !(p.f = fopen(path, "wb"))) {
    free(z);
    return 1;
  }
  for (int y = 0; y < h; y++) { /* filter type 0 per row */
    z[y * row] = 0;
    memcpy(z + y * row + 1, rgb + (size_t)y * w * 3, row - 1);
  }
  static const unsigned char sig[8] = {137, 'P', 'N', 'G', 13, 10, 26, 10};
  fwrite(sig, 1, 8, p.f);
  unsigned char ihdr[13] = {0};
  for (int k = 0; k < 4; k++) {
    ihdr[k] = (unsigned char)((uint32_t)w >> (24 - 8 * k));
    ihdr[4 + k] = (unsigned char)((uint32_t)h >> (24 - 8 * k));
  }
  ihdr[8] = 8; /* bit depth */
  ihdr[9] = 2; /* RGB */
  bd_png_begin(&p, "IHDR", 13);
  bd_png_bytes(&p, ihdr, 13);
  bd_png_end(&p);
  /* zlib: header, stored blocks of at most 65535 bytes, Adler-32 */
  size_t blocks = raw / 65535 + 1;
  bd_png_begin(&p, "IDAT", (uint32_t)(2 + 5 * blocks + raw + 4));
  static const unsigned char zhead[2] = {0x78, 0x01};
  bd_png_bytes(&p, zhead, 2);
  uint32_t a = 1, b = 0;
  for (size_t i = 0; i < raw; i++) {
    a = (a + z[i]) % 65521;
    b = (b + a) % 65521;
  }
  for (size_t off = 0, k = 0; k < blocks; k++) {
    size_t len = raw - off < 65535 ? raw - off : 65535;
    unsigned char hd[5] = {(unsigned char)(k + 1 == blocks), (unsigned char)len,
                           (unsigned char)(len >> 8), (unsigned char)~len,
                           (unsigned char)(~len >> 8)};
    bd_png_bytes(&p, hd, 5);
    bd_png_bytes(&p, z + off, len);
    off += len;
  }
  unsigned char ad[4] = {(unsigned char)(b >> 8), (unsigned char)b,
                         (unsigned char)(a >> 8), (unsigned char)a};
  bd_png_bytes(&p, ad, 4);
  bd_png_end(&p);
  bd_png_begin(&p, "IEND", 0);
  bd_png_end(&p);
  free(z);
  return fclose(p.f) != 0;
}

#endif

/*
 * Rapier HTTP dates: RFC 9110 (formerly 7231) IMF-fixdate formatting, parsing
 * of the three historic formats, and the once-per-second Date header cache.
 *
 * Engine code: no PHP headers, no allocation, no locale, no time zone: every
 * conversion is plain arithmetic on UTC seconds since the Unix epoch.
 */
#ifndef RAPIER_HTTP_DATE_H
#define RAPIER_HTTP_DATE_H

#include <stddef.h>
#include <stdint.h>

/* "Sun, 06 Nov 1994 08:49:37 GMT": IMF-fixdate always has this length. */
#define RAPIER_HTTP_DATE_LEN 29
/* "Date: " + IMF-fixdate + CRLF. */
#define RAPIER_HTTP_DATE_LINE_LEN (6 + RAPIER_HTTP_DATE_LEN + 2)

/*
 * Writes t (UTC seconds) as IMF-fixdate into out, NUL-terminated; returns
 * RAPIER_HTTP_DATE_LEN. t is clamped to years 1970..9999 (a four-digit year
 * is all the format can carry).
 */
size_t rapier_http_date_format(int64_t t, char out[RAPIER_HTTP_DATE_LEN + 1]);

/*
 * Parses an HTTP-date in any of the three formats a recipient must accept:
 * IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), RFC 850
 * ("Sunday, 06-Nov-94 08:49:37 GMT") and asctime ("Sun Nov  6 08:49:37 1994").
 * Surrounding spaces are ignored. Returns 0 and sets *out, or -EINVAL.
 */
int rapier_http_date_parse(const char *s, size_t len, int64_t *out);

/*
 * One per worker: the Date header line, reformatted only when the second
 * the caller passes differs from the cached one. The caller supplies the
 * clock (the loop's cached wall time) so a burst of responses costs no
 * clock read and no formatting.
 */
typedef struct rapier_http_date_cache_s {
	int64_t second;                            /* second held in line; -1 before first use */
	char line[RAPIER_HTTP_DATE_LINE_LEN + 1];  /* "Date: <IMF-fixdate>\r\n", NUL-terminated */
} rapier_http_date_cache_t;

void rapier_http_date_cache_init(rapier_http_date_cache_t *cache);

/* Returns the "Date: ...\r\n" line (RAPIER_HTTP_DATE_LINE_LEN bytes) for now_sec. */
const char *rapier_http_date_cache_line(rapier_http_date_cache_t *cache, int64_t now_sec);

#endif

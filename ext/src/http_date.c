/*
 * Rapier HTTP dates.
 *
 * Formatting and parsing convert between UTC seconds and a civil date with
 * the 400-year-era arithmetic (a Gregorian era is exactly 146097 days), so
 * there is no gmtime_r()/timegm(): those consult the time zone machinery and
 * take a libc lock, and we need neither because HTTP dates are always GMT.
 *
 * The parser is a small cursor over the input (no sscanf: it accepts signs,
 * spaces and field widths that HTTP forbids). It is strict about layout and
 * field ranges but does not check that the weekday matches the date, as the
 * RFC lets recipients ignore it and old clients get it wrong.
 *
 * The Date cache keeps the whole "Date: ...\r\n" line so a response copies
 * 37 bytes; it is refreshed when the caller's second changes, at most once
 * per second under load.
 */
#include "http_date.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

static const char weekdays[7][4] = { "Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed" };
static const char *const weekdays_long[7] = {
	"Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"
};
static const char months[12][4] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
};

/* 9999-12-31T23:59:59Z: the last second a four-digit year can express. */
#define MAX_SECONDS INT64_C(253402300799)

/* Days since 1970-01-01 of y-m-d; the year is counted from March so the leap day comes last. */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	int64_t shifted = m <= 2 ? y - 1 : y;
	int64_t era = (shifted >= 0 ? shifted : shifted - 399) / 400;
	int64_t year_of_era = shifted - era * 400;
	int month_from_march = m > 2 ? m - 3 : m + 9;
	int64_t day_of_year = (153 * month_from_march + 2) / 5 + d - 1;
	int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;

	/* 719468 days separate 0000-03-01, the start of era 0, from the epoch. */
	return era * 146097 + day_of_era - 719468;
}

static void civil_from_days(int64_t days, int *y, int *m, int *d)
{
	int64_t z = days + 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t day_of_era = z - era * 146097;
	int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
	int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
	int month_from_march = (int) ((5 * day_of_year + 2) / 153);

	*d = (int) (day_of_year - (153 * month_from_march + 2) / 5 + 1);
	*m = month_from_march < 10 ? month_from_march + 3 : month_from_march - 9;
	*y = (int) (year_of_era + era * 400 + (*m <= 2));
}

static char *put2(char *p, int v)
{
	p[0] = (char) ('0' + v / 10);
	p[1] = (char) ('0' + v % 10);
	return p + 2;
}

size_t rapier_http_date_format(int64_t t, char out[RAPIER_HTTP_DATE_LEN + 1])
{
	int y, m, d;
	char *p = out;

	if (t < 0) {
		t = 0;
	} else if (t > MAX_SECONDS) {
		t = MAX_SECONDS;
	}
	int64_t days = t / 86400;
	int secs = (int) (t % 86400);

	civil_from_days(days, &y, &m, &d);
	memcpy(p, weekdays[days % 7], 3);
	p[3] = ',';
	p[4] = ' ';
	p = put2(p + 5, d);
	*p++ = ' ';
	memcpy(p, months[m - 1], 3);
	p[3] = ' ';
	p = put2(p + 4, y / 100);
	p = put2(p, y % 100);
	*p++ = ' ';
	p = put2(p, secs / 3600);
	*p++ = ':';
	p = put2(p, secs / 60 % 60);
	*p++ = ':';
	p = put2(p, secs % 60);
	memcpy(p, " GMT", 5);
	return RAPIER_HTTP_DATE_LEN;
}

typedef struct {
	const char *p;
	const char *end;
} cursor_t;

static bool eat(cursor_t *c, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t) (c->end - c->p) < n || memcmp(c->p, lit, n) != 0) {
		return false;
	}
	c->p += n;
	return true;
}

/* Exactly `width` digits. */
static bool digits(cursor_t *c, int width, int *out)
{
	int v = 0;

	if (c->end - c->p < width) {
		return false;
	}
	for (int i = 0; i < width; i++) {
		if (c->p[i] < '0' || c->p[i] > '9') {
			return false;
		}
		v = v * 10 + (c->p[i] - '0');
	}
	c->p += width;
	*out = v;
	return true;
}

static bool month(cursor_t *c, int *out)
{
	for (int i = 0; i < 12; i++) {
		if (eat(c, months[i])) {
			*out = i + 1;
			return true;
		}
	}
	return false;
}

/* "HH:MM:SS"; a leap second (60) is accepted and counted as :59. */
static bool time_of_day(cursor_t *c, int *secs)
{
	int h, m, s;

	if (!digits(c, 2, &h) || !eat(c, ":") || !digits(c, 2, &m) || !eat(c, ":") || !digits(c, 2, &s)) {
		return false;
	}
	if (h > 23 || m > 59 || s > 60) {
		return false;
	}
	*secs = h * 3600 + m * 60 + (s == 60 ? 59 : s);
	return true;
}

static bool valid_day(int y, int m, int d)
{
	static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return d >= 1 && d <= mdays[m - 1] + (m == 2 && leap);
}

/* "06 Nov 1994 08:49:37 GMT" after "Sun, ". */
static bool parse_imf(cursor_t *c, int *y, int *m, int *d, int *secs)
{
	return digits(c, 2, d) && eat(c, " ") && month(c, m) && eat(c, " ") && digits(c, 4, y) && eat(c, " ")
		&& time_of_day(c, secs) && eat(c, " GMT");
}

/*
 * "06-Nov-94 08:49:37 GMT" after "Sunday, ". Two-digit years pivot at 70:
 * 70-99 are 19xx and 00-69 are 20xx. The RFC's rule ("more than 50 years in
 * the future means the past century") needs the current time and gives the
 * same answer for every date this format is still seen with.
 */
static bool parse_rfc850(cursor_t *c, int *y, int *m, int *d, int *secs)
{
	if (!digits(c, 2, d) || !eat(c, "-") || !month(c, m) || !eat(c, "-") || !digits(c, 2, y) || !eat(c, " ")) {
		return false;
	}
	*y += *y < 70 ? 2000 : 1900;
	return time_of_day(c, secs) && eat(c, " GMT");
}

/* "Nov  6 08:49:37 1994" after "Sun ": the day is space-padded to two columns. */
static bool parse_asctime(cursor_t *c, int *y, int *m, int *d, int *secs)
{
	if (!month(c, m) || !eat(c, " ")) {
		return false;
	}
	if (eat(c, " ")) {
		if (!digits(c, 1, d)) {
			return false;
		}
	} else if (!digits(c, 2, d)) {
		return false;
	}
	return eat(c, " ") && time_of_day(c, secs) && eat(c, " ") && digits(c, 4, y);
}

static bool parse_any(cursor_t *c, int *y, int *m, int *d, int *secs)
{
	for (int i = 0; i < 7; i++) {
		cursor_t save = *c;

		if (eat(c, weekdays[i])) {
			if (eat(c, ", ")) {
				return parse_imf(c, y, m, d, secs);
			}
			if (eat(c, " ")) {
				return parse_asctime(c, y, m, d, secs);
			}
		}
		*c = save;
		if (eat(c, weekdays_long[i]) && eat(c, ", ")) {
			return parse_rfc850(c, y, m, d, secs);
		}
		*c = save;
	}
	return false;
}

int rapier_http_date_parse(const char *s, size_t len, int64_t *out)
{
	cursor_t c = { s, s + len };
	int y, m, d, secs;

	while (c.p < c.end && (*c.p == ' ' || *c.p == '\t')) {
		c.p++;
	}
	while (c.end > c.p && (c.end[-1] == ' ' || c.end[-1] == '\t')) {
		c.end--;
	}
	if (!parse_any(&c, &y, &m, &d, &secs) || c.p != c.end || !valid_day(y, m, d)) {
		return -EINVAL;
	}
	*out = days_from_civil(y, m, d) * 86400 + secs;
	return 0;
}

void rapier_http_date_cache_init(rapier_http_date_cache_t *cache)
{
	cache->second = -1;
	memcpy(cache->line, "Date: ", 6);
	cache->line[RAPIER_HTTP_DATE_LINE_LEN] = '\0';
}

const char *rapier_http_date_cache_line(rapier_http_date_cache_t *cache, int64_t now_sec)
{
	if (now_sec != cache->second) {
		char date[RAPIER_HTTP_DATE_LEN + 1];

		rapier_http_date_format(now_sec, date);
		memcpy(cache->line + 6, date, RAPIER_HTTP_DATE_LEN);
		memcpy(cache->line + 6 + RAPIER_HTTP_DATE_LEN, "\r\n", 3);
		cache->second = now_sec;
	}
	return cache->line;
}

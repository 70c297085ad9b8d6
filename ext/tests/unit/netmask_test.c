/* Unit tests for networks (real_ip_from): parsing, addresses in them, IPv4-mapped IPv6. */
#include "unit.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include "netmask.c"

static bool parses(const char *text)
{
	rapier_netmask_t m;
	return rapier_netmask_parse(text, strlen(text), &m);
}

/* Whether address is in the networks of list (NULL-terminated). */
static bool in(const char *address, const char *const *list)
{
	rapier_netmask_t masks[8];
	struct sockaddr_storage sa;
	socklen_t sa_len;
	size_t n = 0;

	for (; list[n]; n++) {
		CHECK(rapier_netmask_parse(list[n], strlen(list[n]), &masks[n]));
	}
	memset(&sa, 0, sizeof(sa));
	if (inet_pton(AF_INET, address, &((struct sockaddr_in *) &sa)->sin_addr) == 1) {
		sa.ss_family = AF_INET;
	} else {
		CHECK(inet_pton(AF_INET6, address, &((struct sockaddr_in6 *) &sa)->sin6_addr) == 1);
		sa.ss_family = AF_INET6;
	}
	(void) sa_len;
	return rapier_netmask_contains(masks, n, (struct sockaddr *) &sa);
}

static void test_parse(void)
{
	const char *good[] = { "127.0.0.1", "10.0.0.0/8", "10.1.2.3/8", "0.0.0.0/0", "192.0.2.0/24", "::1", "::/0",
		"2001:db8::/32", "fd00::/8", "2001:db8::1/128", "::ffff:10.0.0.1" };
	const char *bad[] = { "", "10.0.0.0/33", "2001:db8::/129", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/8x", "10.0.0",
		"localhost", "10.0.0.0/0008", " 10.0.0.1", "10.0.0.1 ", "[::1]", "1.2.3.4:80" };

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		CHECK(parses(good[i]));
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parses(bad[i])) {
			fprintf(stderr, "accepted: '%s'\n", bad[i]);
		}
		CHECK(!parses(bad[i]));
	}
	CHECK(!rapier_netmask_parse("10.0.0.1\0", 9, &(rapier_netmask_t) {0}));
}

static void test_contains(void)
{
	const char *const lan[] = { "10.0.0.0/8", "192.168.1.0/24", "127.0.0.1", NULL };
	const char *const v6[] = { "2001:db8::/32", "::1", "fe80::/10", NULL };
	const char *const odd[] = { "10.1.2.3/8", "172.16.0.0/12", "192.0.2.128/25", NULL };
	const char *const any[] = { "0.0.0.0/0", NULL };

	CHECK(in("10.255.0.1", lan));
	CHECK(in("192.168.1.77", lan));
	CHECK(!in("192.168.2.1", lan));
	CHECK(in("127.0.0.1", lan));
	CHECK(!in("127.0.0.2", lan));
	CHECK(!in("11.0.0.1", lan));
	/* A server on [::] sees IPv4 clients as IPv4-mapped IPv6. */
	CHECK(in("::ffff:10.1.1.1", lan));
	CHECK(!in("::ffff:11.1.1.1", lan));
	CHECK(in("2001:db8:1::5", v6));
	CHECK(!in("2001:db9::5", v6));
	CHECK(in("::1", v6));
	CHECK(in("febf::1", v6));
	CHECK(!in("fec0::1", v6));
	CHECK(!in("10.0.0.1", v6));
	CHECK(!in("2001:db8::1", lan));
	CHECK(in("10.200.0.0", odd));              /* host bits of the network dropped */
	CHECK(in("172.31.255.255", odd));
	CHECK(!in("172.32.0.0", odd));
	CHECK(in("192.0.2.129", odd));
	CHECK(!in("192.0.2.127", odd));
	CHECK(in("203.0.113.9", any));
}

static void test_address(void)
{
	struct sockaddr_storage sa;
	socklen_t len;
	char text[INET6_ADDRSTRLEN];

	CHECK(rapier_netmask_address("192.0.2.7", 9, &sa, &len));
	CHECK_EQ_INT(sa.ss_family, AF_INET);
	CHECK_EQ_INT(len, sizeof(struct sockaddr_in));
	CHECK(rapier_netmask_address("::ffff:192.0.2.8", 16, &sa, &len));
	CHECK_EQ_INT(sa.ss_family, AF_INET);
	inet_ntop(AF_INET, &((struct sockaddr_in *) &sa)->sin_addr, text, sizeof(text));
	CHECK_EQ_STR(text, "192.0.2.8");
	CHECK(rapier_netmask_address("2001:db8::7", 11, &sa, &len));
	CHECK_EQ_INT(sa.ss_family, AF_INET6);
	CHECK(!rapier_netmask_address("192.0.2.7:80", 12, &sa, &len));
	CHECK(!rapier_netmask_address("unknown", 7, &sa, &len));
	CHECK(!rapier_netmask_address("", 0, &sa, &len));
}

int main(void)
{
	test_parse();
	test_contains();
	test_address();
	return unit_finish("netmask");
}

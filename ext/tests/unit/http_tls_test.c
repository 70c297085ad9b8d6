/*
 * Unit tests for the HTTP server's TLS (src/http_tls.c) against an OpenSSL
 * client over a socketpair, both ends non-blocking in one thread. The
 * transfers run with small socket buffers and a client that reads at its
 * own pace, so sends fail with EAGAIN mid-record again and again: every
 * byte must arrive once and in order when the caller offers what is still
 * unsent, exactly as the server's writers do. Also: the certificate
 * errors, ALPN, the version floor, the end of the stream, plain HTTP
 * or garbage instead of a ClientHello, and how a client certificate is
 * described for $_SERVER.
 */
#include "unit.h"

#include "socket_bio.c"
#include "http_tls.c"

#include <fcntl.h>
#include <signal.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

static char dir[] = "/tmp/rapier-http-tls-test-XXXXXX";
static char cert_path[64], key_path[64], other_key_path[64];

static void write_key(const char *path, EVP_PKEY *key)
{
	FILE *f = fopen(path, "w");
	PEM_write_PrivateKey(f, key, NULL, NULL, 0, NULL, NULL);
	fclose(f);
}

/* A self-signed P-256 certificate for localhost and its key, and a key of no certificate. */
static void make_identity(void)
{
	EVP_PKEY *key = EVP_EC_gen("P-256"), *other = EVP_EC_gen("P-256");
	X509 *x = X509_new();
	X509_NAME *name = X509_get_subject_name(x);
	FILE *f;

	X509_set_version(x, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
	X509_gmtime_adj(X509_getm_notBefore(x), 0);
	X509_gmtime_adj(X509_getm_notAfter(x), 86400);
	X509_set_pubkey(x, key);
	X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *) "localhost", -1, -1, 0);
	X509_set_issuer_name(x, name);
	X509_sign(x, key, EVP_sha256());
	snprintf(cert_path, sizeof(cert_path), "%s/cert.pem", dir);
	snprintf(key_path, sizeof(key_path), "%s/key.pem", dir);
	snprintf(other_key_path, sizeof(other_key_path), "%s/other.pem", dir);
	f = fopen(cert_path, "w");
	PEM_write_X509(f, x);
	fclose(f);
	write_key(key_path, key);
	write_key(other_key_path, other);
	X509_free(x);
	EVP_PKEY_free(key);
	EVP_PKEY_free(other);
}

static rapier_http_tls_ctx_t *server_ctx(int min_version, const unsigned char *ticket_key)
{
	rapier_http_tls_config_t cfg = {
		.cert_file = cert_path, .key_file = key_path, .min_version = min_version, .ticket_key = ticket_key,
	};
	char err[256];
	rapier_http_tls_ctx_t *ctx = rapier_http_tls_ctx_new(&cfg, err, sizeof(err));

	if (ctx == NULL) {
		fprintf(stderr, "server context: %s\n", err);
	}
	return ctx;
}

/* A pair of connected non-blocking sockets: [0] the server's, [1] the client's. */
static void socket_pair(int fds[2], int server_sndbuf)
{
	socketpair(AF_UNIX, SOCK_STREAM, 0, fds);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	fcntl(fds[1], F_SETFL, O_NONBLOCK);
	if (server_sndbuf > 0) {
		setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &server_sndbuf, sizeof(server_sndbuf));
		setsockopt(fds[1], SOL_SOCKET, SO_RCVBUF, &server_sndbuf, sizeof(server_sndbuf));
	}
}

typedef struct {
	int fds[2];
	rapier_http_tls_ctx_t *ctx;
	rapier_http_tls_t *server;
	SSL_CTX *client_ctx;
	SSL *client;
} session_t;

static SSL *client_new(session_t *s, int max_version, const char *alpn, size_t alpn_len)
{
	s->client_ctx = SSL_CTX_new(TLS_client_method());
	SSL_CTX_set_verify(s->client_ctx, SSL_VERIFY_NONE, NULL);
	if (max_version) {
		SSL_CTX_set_max_proto_version(s->client_ctx, max_version);
	}
	if (alpn) {
		SSL_CTX_set_alpn_protos(s->client_ctx, (const unsigned char *) alpn, (unsigned) alpn_len);
	}
	s->client = SSL_new(s->client_ctx);
	SSL_set_fd(s->client, s->fds[1]);
	SSL_set_connect_state(s->client);
	return s->client;
}

static void session_open(session_t *s, int server_sndbuf)
{
	memset(s, 0, sizeof(*s));
	socket_pair(s->fds, server_sndbuf);
	s->ctx = server_ctx(TLS1_2_VERSION, NULL);
	s->server = rapier_http_tls_new(s->ctx, s->fds[0]);
}

static void session_close(session_t *s)
{
	if (s->client) {
		/* Without it OpenSSL marks the client's session unfit for resumption. */
		SSL_shutdown(s->client);
		ERR_clear_error();
	}
	rapier_http_tls_free(s->server, true);
	rapier_http_tls_ctx_free(s->ctx);
	SSL_free(s->client);
	SSL_CTX_free(s->client_ctx);
	close(s->fds[0]);
	close(s->fds[1]);
}

/* Runs both sides of the handshake in turn; the server's last step. */
static rapier_http_tls_step_t handshake(session_t *s)
{
	rapier_http_tls_step_t step = RAPIER_HTTP_TLS_WANT_READ;

	for (int i = 0; i < 50; i++) {
		int client_done = SSL_do_handshake(s->client) == 1;
		step = rapier_http_tls_handshake(s->server);
		if ((client_done && step == RAPIER_HTTP_TLS_DONE) || step == RAPIER_HTTP_TLS_FAILED
				|| step == RAPIER_HTTP_TLS_PLAIN_HTTP) {
			break;
		}
	}
	ERR_clear_error();
	return step;
}

/* The client reads up to max bytes into got; how many. */
static size_t client_read(SSL *client, unsigned char *got, size_t max)
{
	int n = SSL_read(client, got, (int) max);

	ERR_clear_error();
	return n > 0 ? (size_t) n : 0;
}

/* The iovecs that cover data from offset on, in pieces cut at the offsets of cuts. */
static int iov_from(struct iovec *iov, int max, const unsigned char *data, size_t len, const size_t *cuts,
	int ncuts, size_t offset)
{
	int n = 0;
	size_t start = 0;

	for (int i = 0; i <= ncuts && n < max; i++) {
		size_t end = i < ncuts ? cuts[i] : len;
		if (end > offset) {
			size_t from = start > offset ? start : offset;
			iov[n].iov_base = (void *) (data + from);
			iov[n].iov_len = end - from;
			n++;
		}
		start = end;
	}
	return n;
}

/*
 * 1 MB in pieces of random sizes, offered a random number of pieces at a
 * time, to a client that reads random amounts and sometimes nothing.
 */
static void test_sendv_under_pressure(unsigned seed)
{
	enum { LEN = 1 << 20, CUTS = 300 };
	unsigned char *data = malloc(LEN), *got = malloc(LEN);
	size_t cuts[CUTS], sent = 0, received = 0, must_offer = 0;
	int eagain = 0, rounds = 0;
	session_t s;

	srand(seed);
	for (size_t i = 0; i < LEN; i++) {
		data[i] = (unsigned char) rand();
	}
	for (int i = 0; i < CUTS; i++) {
		/* Many tiny pieces (a chunked body's size lines) among large ones. */
		cuts[i] = i == 0 ? (size_t) (rand() % 64) : cuts[i - 1] + (rand() % 4 == 0 ? (size_t) (rand() % 8) : (size_t) (rand() % 6900));
		if (cuts[i] > LEN) {
			cuts[i] = LEN;
		}
	}
	session_open(&s, 4096);
	client_new(&s, 0, NULL, 0);
	CHECK_EQ_INT(handshake(&s), RAPIER_HTTP_TLS_DONE);
	while (received < LEN && rounds++ < 1000000) {
		if (sent < LEN) {
			struct iovec iov[64];
			int cnt = 1 + rand() % 64;
			size_t offered;
			ssize_t n;

			/* What was offered and not taken is offered again, at least (http_tls.h). */
			do {
				cnt = iov_from(iov, cnt, data, LEN, cuts, CUTS, sent);
				offered = 0;
				for (int i = 0; i < cnt; i++) {
					offered += iov[i].iov_len;
				}
			} while (offered < must_offer && cnt++ < 64);
			n = rapier_http_tls_sendv(s.server, iov, cnt);
			if (n > 0) {
				sent += (size_t) n;
				must_offer = offered - (size_t) n;
			} else {
				CHECK(n == -1 && errno == EAGAIN);
				if (errno != EAGAIN) {
					break;
				}
				must_offer = offered;
				eagain++;
			}
		}
		if (rand() % 3 != 0) {
			received += client_read(s.client, got + received, 1 + (size_t) (rand() % 20000) > LEN - received
				? LEN - received : 1 + (size_t) (rand() % 20000));
		}
	}
	CHECK_EQ_INT(sent, LEN);
	CHECK_EQ_INT(received, LEN);
	CHECK(memcmp(data, got, LEN) == 0);
	CHECK(eagain > 10);
	session_close(&s);
	free(data);
	free(got);
}

/* A file through sendfile(), the offset moved by what was sent, under the same pressure. */
static void test_sendfile_under_pressure(void)
{
	enum { LEN = 700000 };
	unsigned char *data = malloc(LEN), *got = malloc(LEN);
	char path[64];
	off_t offset = 0;
	size_t received = 0;
	int eagain = 0, fd, rounds = 0;
	session_t s;

	for (size_t i = 0; i < LEN; i++) {
		data[i] = (unsigned char) (i * 7 + i / 1000);
	}
	snprintf(path, sizeof(path), "%s/file.bin", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(write(fd, data, LEN) == LEN);
	session_open(&s, 4096);
	client_new(&s, 0, NULL, 0);
	CHECK_EQ_INT(handshake(&s), RAPIER_HTTP_TLS_DONE);
	while (received < LEN && rounds++ < 1000000) {
		if ((size_t) offset < LEN) {
			off_t before = offset;
			ssize_t n = rapier_http_tls_sendfile(s.server, fd, &offset, LEN - (size_t) offset);
			if (n > 0) {
				CHECK_EQ_INT(offset - before, n);
			} else {
				CHECK(n == -1 && errno == EAGAIN && offset == before);
				eagain++;
			}
		}
		if (rand() % 2) {
			received += client_read(s.client, got + received, LEN - received);
		}
	}
	CHECK_EQ_INT(offset, LEN);
	CHECK_EQ_INT(received, LEN);
	CHECK(memcmp(data, got, LEN) == 0);
	CHECK(eagain > 0);
	/* Past the end of the file: 0, as sendfile() says it. */
	CHECK_EQ_INT(rapier_http_tls_sendfile(s.server, fd, &offset, 10), 0);
	session_close(&s);
	close(fd);
	unlink(path);
	free(data);
	free(got);
}

static void test_recv_and_end_of_stream(void)
{
	session_t s;
	char buf[64];

	session_open(&s, 0);
	client_new(&s, 0, NULL, 0);
	CHECK_EQ_INT(handshake(&s), RAPIER_HTTP_TLS_DONE);
	CHECK_EQ_STR(rapier_http_tls_version(s.server), "TLSv1.3");
	CHECK(rapier_http_tls_cipher(s.server) != NULL);
	errno = 0;
	CHECK_EQ_INT(rapier_http_tls_recv(s.server, buf, sizeof(buf)), -1);
	CHECK_EQ_INT(errno, EAGAIN);
	CHECK_EQ_INT(SSL_write(s.client, "hello", 5), 5);
	CHECK_EQ_INT(rapier_http_tls_recv(s.server, buf, sizeof(buf)), 5);
	CHECK(memcmp(buf, "hello", 5) == 0);
	/* The client's close_notify is the end of the stream. */
	SSL_shutdown(s.client);
	CHECK_EQ_INT(rapier_http_tls_recv(s.server, buf, sizeof(buf)), 0);
	session_close(&s);

	/* A client that closes its socket without close_notify: also the end, not an error. */
	session_open(&s, 0);
	client_new(&s, 0, NULL, 0);
	CHECK_EQ_INT(handshake(&s), RAPIER_HTTP_TLS_DONE);
	shutdown(s.fds[1], SHUT_WR);
	CHECK_EQ_INT(rapier_http_tls_recv(s.server, buf, sizeof(buf)), 0);
	session_close(&s);
}

static void test_not_tls(void)
{
	session_t s;
	char buf[64];

	/* Plain HTTP: recognized, and nothing is written back (the server answers in the clear). */
	session_open(&s, 0);
	CHECK(write(s.fds[1], "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 27) == 27);
	CHECK_EQ_INT(rapier_http_tls_handshake(s.server), RAPIER_HTTP_TLS_PLAIN_HTTP);
	CHECK_EQ_INT(recv(s.fds[1], buf, sizeof(buf), MSG_DONTWAIT), -1);
	session_close(&s);

	session_open(&s, 0);
	CHECK(write(s.fds[1], "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09", 10) == 10);
	CHECK_EQ_INT(rapier_http_tls_handshake(s.server), RAPIER_HTTP_TLS_FAILED);
	session_close(&s);

	/* A ClientHello cut short: the server waits for the rest. */
	session_open(&s, 0);
	CHECK(write(s.fds[1], "\x16\x03\x01\x02\x00\x01", 6) == 6);
	CHECK_EQ_INT(rapier_http_tls_handshake(s.server), RAPIER_HTTP_TLS_WANT_READ);
	close(s.fds[1]);
	s.fds[1] = -1;
	CHECK_EQ_INT(rapier_http_tls_handshake(s.server), RAPIER_HTTP_TLS_FAILED);
	session_close(&s);
}

static void test_versions_and_alpn(void)
{
	session_t s;
	const unsigned char *proto;
	unsigned proto_len;

	/* A client that speaks at most TLS 1.2 against a floor of 1.3. */
	memset(&s, 0, sizeof(s));
	socket_pair(s.fds, 0);
	s.ctx = server_ctx(TLS1_3_VERSION, NULL);
	s.server = rapier_http_tls_new(s.ctx, s.fds[0]);
	client_new(&s, TLS1_2_VERSION, NULL, 0);
	CHECK_EQ_INT(handshake(&s), RAPIER_HTTP_TLS_FAILED);
	session_close(&s);

	/* TLS 1.2 when the client offers no more; ALPN picks http/1.1 after h2. */
	session_open(&s, 0);
	client_new(&s, TLS1_2_VERSION, "\x02h2\x08http/1.1", 12);
	CHECK_EQ_INT(handshake(&s), RAPIER_HTTP_TLS_DONE);
	CHECK_EQ_STR(rapier_http_tls_version(s.server), "TLSv1.2");
	SSL_get0_alpn_selected(s.client, &proto, &proto_len);
	CHECK(proto_len == 8 && memcmp(proto, "http/1.1", 8) == 0);
	session_close(&s);

	/* h2 alone: no protocol agreed, the handshake goes on without one. */
	session_open(&s, 0);
	client_new(&s, 0, "\x02h2", 3);
	CHECK_EQ_INT(handshake(&s), RAPIER_HTTP_TLS_DONE);
	SSL_get0_alpn_selected(s.client, &proto, &proto_len);
	CHECK_EQ_INT(proto_len, 0);
	session_close(&s);
}

static void check_ctx_error(const char *cert, const char *key, const char *ciphers, const char *expected)
{
	rapier_http_tls_config_t cfg = { .cert_file = cert, .key_file = key, .min_version = TLS1_2_VERSION, .ciphers = ciphers };
	char err[256] = "";
	rapier_http_tls_ctx_t *ctx = rapier_http_tls_ctx_new(&cfg, err, sizeof(err));

	CHECK(ctx == NULL);
	if (strstr(err, expected) == NULL) {
		unit_failures++;
		fprintf(stderr, "context error \"%s\" does not say \"%s\"\n", err, expected);
	}
	unit_checks++;
	rapier_http_tls_ctx_free(ctx);
	CHECK_EQ_INT(ERR_peek_error(), 0);
}

static void test_certificate_errors(void)
{
	char missing[80];

	snprintf(missing, sizeof(missing), "%s/missing.pem", dir);
	check_ctx_error(missing, NULL, NULL, "No such file or directory");
	check_ctx_error(key_path, NULL, NULL, "no certificate");
	check_ctx_error(cert_path, NULL, NULL, "holds no private key");
	check_ctx_error(cert_path, other_key_path, NULL, "the key does not belong to the certificate");
	check_ctx_error(cert_path, key_path, "NO-SUCH-CIPHER", "no cipher OpenSSL knows");
}

/* Two contexts with the same ticket keys (two workers): a session from one resumes on the other. */
static void test_tickets_shared(void)
{
	unsigned char keys[RAPIER_HTTP_TLS_TICKET_KEY_LEN];
	rapier_http_tls_ctx_t *worker[2];
	SSL_CTX *client_ctx = SSL_CTX_new(TLS_client_method());
	SSL_SESSION *ticket = NULL;
	char buf[16];

	CHECK(rapier_http_tls_ticket_key_generate(keys));
	worker[0] = server_ctx(TLS1_2_VERSION, keys);
	worker[1] = server_ctx(TLS1_2_VERSION, keys);
	SSL_CTX_set_verify(client_ctx, SSL_VERIFY_NONE, NULL);
	for (int i = 0; i < 2; i++) {
		session_t s;

		memset(&s, 0, sizeof(s));
		socket_pair(s.fds, 0);
		s.server = rapier_http_tls_new(worker[i], s.fds[0]);
		s.client = SSL_new(client_ctx);
		SSL_set_fd(s.client, s.fds[1]);
		SSL_set_connect_state(s.client);
		if (ticket) {
			SSL_set_session(s.client, ticket);
		}
		CHECK_EQ_INT(handshake(&s), RAPIER_HTTP_TLS_DONE);
		CHECK_EQ_INT(SSL_session_reused(s.client), i == 1);
		/* TLS 1.3 tickets come after the handshake: a read takes them in. */
		SSL_read(s.client, buf, sizeof(buf));
		ERR_clear_error();
		if (ticket == NULL) {
			ticket = SSL_get1_session(s.client);
		}
		session_close(&s);
	}
	SSL_SESSION_free(ticket);
	SSL_CTX_free(client_ctx);
	rapier_http_tls_ctx_free(worker[0]);
	rapier_http_tls_ctx_free(worker[1]);
}

/* Checks one described field of the certificate against what it should say. */
static void check_peer_field(const rapier_http_tls_peer_t *peer, rapier_http_tls_peer_field_t field, const char *want)
{
	size_t len = 0;
	char *got = rapier_http_tls_peer_field(peer, field, &len);

	CHECK(got != NULL);
	if (got) {
		CHECK_EQ_INT(len, strlen(got));
		CHECK_EQ_STR(got, want);
	}
	free(got);
}

/*
 * SSL_CLIENT_S_DN and the rest: a subject with characters RFC 2253 escapes
 * and UTF-8 it keeps, a serial wider than a long, fixed dates, and the PEM,
 * which reads back as the same certificate.
 */
static void test_peer_fields(void)
{
	EVP_PKEY *key = EVP_EC_gen("P-256");
	X509 *x = X509_new(), *back;
	X509_NAME *subject = X509_get_subject_name(x), *issuer = X509_get_issuer_name(x);
	BIGNUM *serial = NULL;
	char *pem;
	size_t len = 0;
	BIO *bio;

	BN_hex2bn(&serial, "0102030405060708090A0B");
	BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(x));
	ASN1_TIME_set_string(X509_getm_notBefore(x), "20260304050607Z");
	ASN1_TIME_set_string(X509_getm_notAfter(x), "20991231235959Z");
	X509_NAME_add_entry_by_txt(subject, "O", MBSTRING_UTF8, (const unsigned char *) "Example+Co", -1, -1, 0);
	X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_UTF8, (const unsigned char *) "Zo\xc3\xab, \"Q\"", -1, -1, 0);
	X509_NAME_add_entry_by_txt(issuer, "CN", MBSTRING_ASC, (const unsigned char *) "Test CA", -1, -1, 0);
	X509_set_pubkey(x, key);
	X509_sign(x, key, EVP_sha256());

	check_peer_field(x, RAPIER_HTTP_TLS_PEER_SUBJECT, "CN=Zo\xc3\xab\\, \\\"Q\\\",O=Example\\+Co");
	check_peer_field(x, RAPIER_HTTP_TLS_PEER_ISSUER, "CN=Test CA");
	check_peer_field(x, RAPIER_HTTP_TLS_PEER_SERIAL, "0102030405060708090A0B");
	check_peer_field(x, RAPIER_HTTP_TLS_PEER_NOT_BEFORE, "Mar  4 05:06:07 2026 GMT");
	check_peer_field(x, RAPIER_HTTP_TLS_PEER_NOT_AFTER, "Dec 31 23:59:59 2099 GMT");
	pem = rapier_http_tls_peer_field(x, RAPIER_HTTP_TLS_PEER_PEM, &len);
	CHECK(pem != NULL && strncmp(pem, "-----BEGIN CERTIFICATE-----\n", 28) == 0);
	bio = BIO_new_mem_buf(pem, (int) len);
	back = PEM_read_bio_X509(bio, NULL, NULL, NULL);
	CHECK(back != NULL && X509_cmp(back, x) == 0);
	X509_free(back);
	BIO_free(bio);
	free(pem);
	BN_free(serial);
	X509_free(x);
	EVP_PKEY_free(key);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);   /* the OpenSSL client writes with write() */
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	make_identity();
	test_certificate_errors();
	test_recv_and_end_of_stream();
	test_not_tls();
	test_versions_and_alpn();
	test_tickets_shared();
	test_peer_fields();
	for (unsigned seed = 1; seed <= 4; seed++) {
		test_sendv_under_pressure(seed);
	}
	test_sendfile_under_pressure();
	unlink(cert_path);
	unlink(key_path);
	unlink(other_key_path);
	rmdir(dir);
	rapier_socket_bio_mshutdown();
	return unit_finish("http_tls_test");
}

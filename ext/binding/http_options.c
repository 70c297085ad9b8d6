/*
 * Rapier\Http\Server's options: the array its constructor takes, checked
 * all at once (an unknown name, a wrong type or a value out of range is a
 * ValueError before anything is bound) and stored in the server object.
 * The table is what docs/http-server.md's options table documents.
 */
#include "php_rapier.h"

#include "http_server_object.h"

#include <openssl/ssl.h>

typedef enum {
	OPT_INT, OPT_SIZE, OPT_SECONDS, OPT_BOOL, OPT_STRING, OPT_CERTIFICATES, OPT_BOOL_OR_PORT, OPT_NETWORKS,
	OPT_CODINGS
} option_kind_t;

typedef enum {
	O_WORKERS,
	O_TASK_WORKERS,
	O_CONCURRENCY,
	O_QUEUE_TIMEOUT,
	O_LATENCY_TARGET,
	O_SLOWLOG_TIMEOUT,
	O_MAX_REQUESTS,
	O_MAX_CONNECTIONS,
	O_MAX_HEADER_SIZE,
	O_MAX_HEADER_COUNT,
	O_MAX_BODY_SIZE,
	O_BODY_BUFFER_SIZE,
	O_MAX_BODY_DISCARD,
	O_READ_TIMEOUT,
	O_BODY_TIMEOUT,
	O_REQUEST_BUFFERING,
	O_KEEPALIVE_TIMEOUT,
	O_WRITE_TIMEOUT,
	O_TCP_KEEPALIVE,
	O_SHUTDOWN_TIMEOUT,
	O_BACKLOG,
	O_GZIP,
	O_GZIP_LEVEL,
	O_COMPRESSION,
	O_BROTLI_LEVEL,
	O_ZSTD_LEVEL,
	O_COMPRESSION_MIN_LENGTH,
	O_DOCUMENT_ROOT,
	O_STATIC_PRECOMPRESSED,
	O_STATIC_COMPRESS_MAX_SIZE,
	O_STATIC_COMPRESS_CACHE,
	O_DEBUG,
	O_SERVER_NAME,
	O_PID_FILE,
	O_ACCESS_LOG,
	O_ACCESS_LOG_FORMAT,
	O_ERROR_LOG,
	O_MAX_MEMORY,
	O_TASK_MAX_PAYLOAD,
	O_MESSAGE_MAX_PAYLOAD,
	O_WEBSOCKET_MAX_MESSAGE_SIZE,
	O_WEBSOCKET_CLOSE_TIMEOUT,
	O_WEBSOCKET_COMPRESSION,
	O_TLS_CERT_FILE,
	O_TLS_KEY_FILE,
	O_TLS_MIN_VERSION,
	O_TLS_CIPHERS,
	O_TLS_CLIENT_CA_FILE,
	O_TLS_VERIFY_CLIENT,
	O_TLS_VERIFY_DEPTH,
	O_TLS_CERTIFICATES,
	O_TLS_CRL_FILE,
	O_HTTP_PORT,
	O_HTTPS_REDIRECT,
	O_EARLY_HINTS,
	O_HTTP2,
	O_HTTP2_MAX_CONCURRENT_STREAMS,
	O_PROXY_PROTOCOL,
	O_REAL_IP_HEADER,
	O_REAL_IP_FROM,
	O_REAL_SCHEME_HEADER,
} option_id_t;

typedef struct {
	const char *name;
	option_id_t id;
	option_kind_t kind;
	zend_long min, max;
} option_t;

static const option_t options[] = {
	{ "workers", O_WORKERS, OPT_INT, 0, 1024 },
	{ "task_workers", O_TASK_WORKERS, OPT_INT, 0, 1024 },
	{ "concurrency", O_CONCURRENCY, OPT_INT, 0, 1000000 },
	{ "queue_timeout", O_QUEUE_TIMEOUT, OPT_SECONDS, 0, 0 },
	{ "latency_target", O_LATENCY_TARGET, OPT_SECONDS, 0, 0 },
	{ "slowlog_timeout", O_SLOWLOG_TIMEOUT, OPT_SECONDS, 0, 0 },
	{ "max_requests", O_MAX_REQUESTS, OPT_INT, 0, ZEND_LONG_MAX },
	{ "max_connections", O_MAX_CONNECTIONS, OPT_INT, 1, 10000000 },
	{ "max_header_size", O_MAX_HEADER_SIZE, OPT_SIZE, 256, 1 << 20 },
	{ "max_header_count", O_MAX_HEADER_COUNT, OPT_INT, 1, 10000 },
	{ "max_body_size", O_MAX_BODY_SIZE, OPT_SIZE, 0, ZEND_LONG_MAX },
	{ "body_buffer_size", O_BODY_BUFFER_SIZE, OPT_SIZE, 0, ZEND_LONG_MAX },
	{ "max_body_discard", O_MAX_BODY_DISCARD, OPT_SIZE, 0, ZEND_LONG_MAX },
	{ "read_timeout", O_READ_TIMEOUT, OPT_SECONDS, 0, 0 },
	{ "body_timeout", O_BODY_TIMEOUT, OPT_SECONDS, 0, 0 },
	{ "request_buffering", O_REQUEST_BUFFERING, OPT_BOOL, 0, 0 },
	{ "keepalive_timeout", O_KEEPALIVE_TIMEOUT, OPT_SECONDS, 0, 0 },
	{ "write_timeout", O_WRITE_TIMEOUT, OPT_SECONDS, 0, 0 },
	{ "tcp_keepalive", O_TCP_KEEPALIVE, OPT_INT, 0, 32767 },
	{ "shutdown_timeout", O_SHUTDOWN_TIMEOUT, OPT_SECONDS, 0, 0 },
	{ "backlog", O_BACKLOG, OPT_INT, 1, 65535 },
	{ "gzip", O_GZIP, OPT_BOOL, 0, 0 },
	{ "gzip_level", O_GZIP_LEVEL, OPT_INT, 1, 9 },
	{ "compression", O_COMPRESSION, OPT_CODINGS, 0, 0 },
	{ "brotli_level", O_BROTLI_LEVEL, OPT_INT, 0, RAPIER_BROTLI_MAX_LEVEL },
	{ "zstd_level", O_ZSTD_LEVEL, OPT_INT, 1, RAPIER_ZSTD_MAX_LEVEL },
	{ "compression_min_length", O_COMPRESSION_MIN_LENGTH, OPT_INT, 0, ZEND_LONG_MAX },
	/* Its name from before there were codings other than gzip. */
	{ "gzip_min_length", O_COMPRESSION_MIN_LENGTH, OPT_INT, 0, ZEND_LONG_MAX },
	{ "document_root", O_DOCUMENT_ROOT, OPT_STRING, 0, 0 },
	{ "static_precompressed", O_STATIC_PRECOMPRESSED, OPT_BOOL, 0, 0 },
	{ "static_compress_max_size", O_STATIC_COMPRESS_MAX_SIZE, OPT_SIZE, 0, (zend_long) 1 << 30 },
	{ "static_compress_cache", O_STATIC_COMPRESS_CACHE, OPT_SIZE, 0, ZEND_LONG_MAX },
	{ "debug", O_DEBUG, OPT_BOOL, 0, 0 },
	{ "server_name", O_SERVER_NAME, OPT_STRING, 0, 0 },
	{ "pid_file", O_PID_FILE, OPT_STRING, 0, 0 },
	{ "access_log", O_ACCESS_LOG, OPT_STRING, 0, 0 },
	{ "access_log_format", O_ACCESS_LOG_FORMAT, OPT_STRING, 0, 0 },
	{ "error_log", O_ERROR_LOG, OPT_STRING, 0, 0 },
	{ "max_memory", O_MAX_MEMORY, OPT_SIZE, 0, ZEND_LONG_MAX },
	{ "task_max_payload", O_TASK_MAX_PAYLOAD, OPT_SIZE, 1024, 1 << 30 },
	{ "message_max_payload", O_MESSAGE_MAX_PAYLOAD, OPT_SIZE, 1024, 1 << 30 },
	{ "websocket_max_message_size", O_WEBSOCKET_MAX_MESSAGE_SIZE, OPT_SIZE, 1, (zend_long) 1 << 31 },
	{ "websocket_close_timeout", O_WEBSOCKET_CLOSE_TIMEOUT, OPT_SECONDS, 0, 0 },
	{ "websocket_compression", O_WEBSOCKET_COMPRESSION, OPT_BOOL, 0, 0 },
	{ "tls_cert_file", O_TLS_CERT_FILE, OPT_STRING, 0, 0 },
	{ "tls_key_file", O_TLS_KEY_FILE, OPT_STRING, 0, 0 },
	{ "tls_min_version", O_TLS_MIN_VERSION, OPT_STRING, 0, 0 },
	{ "tls_ciphers", O_TLS_CIPHERS, OPT_STRING, 0, 0 },
	{ "tls_client_ca_file", O_TLS_CLIENT_CA_FILE, OPT_STRING, 0, 0 },
	{ "tls_verify_client", O_TLS_VERIFY_CLIENT, OPT_STRING, 0, 0 },
	{ "tls_verify_depth", O_TLS_VERIFY_DEPTH, OPT_INT, 0, 100 },
	{ "tls_certificates", O_TLS_CERTIFICATES, OPT_CERTIFICATES, 0, 0 },
	{ "tls_crl_file", O_TLS_CRL_FILE, OPT_STRING, 0, 0 },
	{ "http_port", O_HTTP_PORT, OPT_INT, 1, 65535 },
	{ "https_redirect", O_HTTPS_REDIRECT, OPT_BOOL_OR_PORT, 1, 65535 },
	{ "early_hints", O_EARLY_HINTS, OPT_BOOL, 0, 0 },
	{ "http2", O_HTTP2, OPT_BOOL, 0, 0 },
	{ "http2_max_concurrent_streams", O_HTTP2_MAX_CONCURRENT_STREAMS, OPT_INT, 1, 1000 },
	{ "proxy_protocol", O_PROXY_PROTOCOL, OPT_BOOL, 0, 0 },
	{ "real_ip_header", O_REAL_IP_HEADER, OPT_STRING, 0, 0 },
	{ "real_ip_from", O_REAL_IP_FROM, OPT_NETWORKS, 0, 0 },
	{ "real_scheme_header", O_REAL_SCHEME_HEADER, OPT_STRING, 0, 0 },
};

static const option_t *find_option(zend_string *name)
{
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		if (zend_string_equals_cstr(name, options[i].name, strlen(options[i].name))) {
			return &options[i];
		}
	}
	return NULL;
}

/* A path in a tls_certificates entry: a non-empty string, or absent (NULL) when it may be. */
static bool certificate_path(HashTable *entry, const char *name, uint32_t index, bool required, zval **path)
{
	*path = zend_hash_str_find_deref(entry, name, strlen(name));
	if (*path == NULL && !required) {
		return true;
	}
	if (*path == NULL || Z_TYPE_P(*path) != IS_STRING || Z_STRLEN_P(*path) == 0) {
		zend_argument_value_error(3, "option \"tls_certificates\" entry %u needs \"%s\", a non-empty string", index, name);
		return false;
	}
	return true;
}

/* tls_certificates: a non-empty list of ["cert_file" => path, "key_file" => path], the key optional. */
static bool check_certificates(zval *value)
{
	zval *entry, *path;
	zend_string *key;
	uint32_t index = 0;

	if (Z_TYPE_P(value) != IS_ARRAY || zend_hash_num_elements(Z_ARRVAL_P(value)) == 0
			|| !zend_array_is_list(Z_ARRVAL_P(value))) {
		zend_argument_value_error(3, "option \"tls_certificates\" must be a non-empty list of "
			"[\"cert_file\" => ..., \"key_file\" => ...] arrays");
		return false;
	}
	ZEND_HASH_FOREACH_VAL_IND(Z_ARRVAL_P(value), entry) {
		ZVAL_DEREF(entry);
		if (Z_TYPE_P(entry) != IS_ARRAY) {
			zend_argument_value_error(3, "option \"tls_certificates\" entry %u must be an array with \"cert_file\" "
				"(and \"key_file\" when the key is in a file of its own)", index);
			return false;
		}
		ZEND_HASH_FOREACH_STR_KEY(Z_ARRVAL_P(entry), key) {
			if (key == NULL || (!zend_string_equals_literal(key, "cert_file") && !zend_string_equals_literal(key, "key_file"))) {
				zend_argument_value_error(3, "option \"tls_certificates\" entry %u has an unknown key%s%s: "
					"only \"cert_file\" and \"key_file\"", index, key ? " " : "", key ? ZSTR_VAL(key) : "");
				return false;
			}
		} ZEND_HASH_FOREACH_END();
		if (!certificate_path(Z_ARRVAL_P(entry), "cert_file", index, true, &path)
				|| !certificate_path(Z_ARRVAL_P(entry), "key_file", index, false, &path)) {
			return false;
		}
		index++;
	} ZEND_HASH_FOREACH_END();
	return true;
}

/* Keeps the paths of a list check_certificates() accepted, in pairs. */
static void set_certificates(server_t *srv, zval *value)
{
	zval *entry, *cert, *key;
	uint32_t i = 0;

	rapier_http_server_free_certificate_files(srv);
	srv->tls_certificate_count = zend_hash_num_elements(Z_ARRVAL_P(value));
	srv->tls_certificate_files = safe_emalloc(srv->tls_certificate_count, 2 * sizeof(zend_string *), 0);
	ZEND_HASH_FOREACH_VAL_IND(Z_ARRVAL_P(value), entry) {
		ZVAL_DEREF(entry);
		cert = zend_hash_str_find_deref(Z_ARRVAL_P(entry), ZEND_STRL("cert_file"));
		key = zend_hash_str_find_deref(Z_ARRVAL_P(entry), ZEND_STRL("key_file"));
		srv->tls_certificate_files[2 * i] = zend_string_copy(Z_STR_P(cert));
		srv->tls_certificate_files[2 * i + 1] = key ? zend_string_copy(Z_STR_P(key)) : NULL;
		i++;
	} ZEND_HASH_FOREACH_END();
}

void rapier_http_server_free_certificate_files(server_t *srv)
{
	for (uint32_t i = 0; i < 2 * srv->tls_certificate_count; i++) {
		if (srv->tls_certificate_files[i]) {
			zend_string_release(srv->tls_certificate_files[i]);
		}
	}
	if (srv->tls_certificate_files) {
		efree(srv->tls_certificate_files);
	}
	srv->tls_certificate_files = NULL;
	srv->tls_certificate_count = 0;
}

/* real_ip_from: one address or network, or a list of them. */
static bool check_networks(zval *value)
{
	zval *entry;
	rapier_netmask_t mask;

	if (Z_TYPE_P(value) == IS_STRING) {
		if (rapier_netmask_parse(Z_STRVAL_P(value), Z_STRLEN_P(value), &mask)) {
			return true;
		}
		zend_argument_value_error(3, "option \"real_ip_from\" must be an address or a network (\"10.0.0.0/8\", "
			"\"2001:db8::/32\"), or a list of them: \"%s\" is neither", Z_STRVAL_P(value));
		return false;
	}
	if (Z_TYPE_P(value) != IS_ARRAY || zend_hash_num_elements(Z_ARRVAL_P(value)) == 0) {
		zend_argument_value_error(3, "option \"real_ip_from\" must be an address or a network (\"10.0.0.0/8\", "
			"\"2001:db8::/32\"), or a non-empty list of them");
		return false;
	}
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(value), entry) {
		ZVAL_DEREF(entry);
		if (Z_TYPE_P(entry) != IS_STRING || !check_networks(entry)) {
			if (!EG(exception)) {
				zend_argument_value_error(3, "option \"real_ip_from\" must list addresses or networks as strings");
			}
			return false;
		}
	} ZEND_HASH_FOREACH_END();
	return true;
}

static void set_networks(server_t *srv, zval *value)
{
	zval *entry;
	uint32_t n = 0;

	if (srv->real_ip_from) {
		efree(srv->real_ip_from);
	}
	srv->real_ip_from = safe_emalloc(Z_TYPE_P(value) == IS_ARRAY ? zend_hash_num_elements(Z_ARRVAL_P(value)) : 1,
		sizeof(rapier_netmask_t), 0);
	if (Z_TYPE_P(value) == IS_STRING) {
		rapier_netmask_parse(Z_STRVAL_P(value), Z_STRLEN_P(value), &srv->real_ip_from[n++]);
	} else {
		ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(value), entry) {
			ZVAL_DEREF(entry);
			rapier_netmask_parse(Z_STRVAL_P(entry), Z_STRLEN_P(entry), &srv->real_ip_from[n++]);
		} ZEND_HASH_FOREACH_END();
	}
	srv->real_ip_from_count = n;
	srv->cfg.real_ip_from = srv->real_ip_from;
	srv->cfg.real_ip_from_count = n;
}

/* compression: a list of distinct codings, "zstd", "br" and "gzip", the most preferred first; [] for none. */
static bool check_codings(zval *value)
{
	bool seen[RAPIER_CODING_COUNT + 1] = { false };
	zval *entry;

	if (Z_TYPE_P(value) != IS_ARRAY || !zend_array_is_list(Z_ARRVAL_P(value))) {
		zend_argument_value_error(3, "option \"compression\" must be a list of codings, the most preferred first, "
			"of \"zstd\", \"br\" and \"gzip\" ([] for none)");
		return false;
	}
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(value), entry) {
		ZVAL_DEREF(entry);
		rapier_coding_t c = Z_TYPE_P(entry) == IS_STRING
			? rapier_coding_from_name(Z_STRVAL_P(entry), Z_STRLEN_P(entry)) : RAPIER_CODING_IDENTITY;
		if (c == RAPIER_CODING_IDENTITY || !zend_string_equals_cstr(Z_STR_P(entry), rapier_coding_name(c),
				strlen(rapier_coding_name(c)))) {
			zend_argument_value_error(3, "option \"compression\" may list only \"zstd\", \"br\" and \"gzip\"");
			return false;
		}
		if (seen[c]) {
			zend_argument_value_error(3, "option \"compression\" lists \"%s\" twice", rapier_coding_name(c));
			return false;
		}
		seen[c] = true;
	} ZEND_HASH_FOREACH_END();
	return true;
}

static void set_codings(rapier_compress_config_t *cfg, zval *value)
{
	zval *entry;

	cfg->coding_count = 0;
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(value), entry) {
		ZVAL_DEREF(entry);
		cfg->codings[cfg->coding_count++] = rapier_coding_from_name(Z_STRVAL_P(entry), Z_STRLEN_P(entry));
	} ZEND_HASH_FOREACH_END();
}

/* Checks a value's type and range; the value converted goes to *lval or *dval. */
static bool check_option(const option_t *opt, zval *value, zend_long *lval, double *dval)
{
	switch (opt->kind) {
		case OPT_INT:
		case OPT_SIZE:
			if (Z_TYPE_P(value) != IS_LONG || Z_LVAL_P(value) < opt->min || Z_LVAL_P(value) > opt->max) {
				zend_argument_value_error(3, "option \"%s\" must be an integer between " ZEND_LONG_FMT " and " ZEND_LONG_FMT,
					opt->name, opt->min, opt->max);
				return false;
			}
			*lval = Z_LVAL_P(value);
			return true;
		case OPT_SECONDS:
			if ((Z_TYPE_P(value) != IS_LONG && Z_TYPE_P(value) != IS_DOUBLE) || zval_get_double(value) <= 0
					|| zend_isnan(zval_get_double(value)) || zval_get_double(value) > 9e9) {
				zend_argument_value_error(3, "option \"%s\" must be a number of seconds greater than 0 and at most 9e9", opt->name);
				return false;
			}
			*dval = zval_get_double(value);
			return true;
		case OPT_BOOL:
			if (Z_TYPE_P(value) != IS_TRUE && Z_TYPE_P(value) != IS_FALSE) {
				zend_argument_value_error(3, "option \"%s\" must be a bool", opt->name);
				return false;
			}
			*lval = Z_TYPE_P(value) == IS_TRUE;
			return true;
		case OPT_STRING:
			if (Z_TYPE_P(value) != IS_STRING || Z_STRLEN_P(value) == 0) {
				zend_argument_value_error(3, "option \"%s\" must be a non-empty string", opt->name);
				return false;
			}
			return true;
		case OPT_CERTIFICATES:
			return check_certificates(value);
		case OPT_NETWORKS:
			return check_networks(value);
		case OPT_CODINGS:
			return check_codings(value);
		case OPT_BOOL_OR_PORT:
			if (Z_TYPE_P(value) == IS_TRUE || Z_TYPE_P(value) == IS_FALSE) {
				*lval = Z_TYPE_P(value) == IS_TRUE ? -1 : 0;
				return true;
			}
			if (Z_TYPE_P(value) != IS_LONG || Z_LVAL_P(value) < opt->min || Z_LVAL_P(value) > opt->max) {
				zend_argument_value_error(3, "option \"%s\" must be a bool or a port number between " ZEND_LONG_FMT
					" and " ZEND_LONG_FMT, opt->name, opt->min, opt->max);
				return false;
			}
			*lval = Z_LVAL_P(value);
			return true;
	}
	return false;
}

static void set_string(zend_string **slot, zval *value)
{
	if (*slot) {
		zend_string_release(*slot);
	}
	*slot = zend_string_copy(Z_STR_P(value));
}

/* A header name, kept in lower case as the parser's field names are compared. */
static const char *set_header_name(zend_string **slot, zval *value)
{
	if (*slot) {
		zend_string_release(*slot);
	}
	*slot = zend_string_tolower(Z_STR_P(value));
	return ZSTR_VAL(*slot);
}

/* Stores a value check_option() accepted. */
static void apply_option(server_t *srv, const option_t *opt, zval *value, zend_long l, double d)
{
	int64_t ns = (int64_t) (d * 1e9);

	switch (opt->id) {
		case O_WORKERS: srv->workers = l; break;
		case O_TASK_WORKERS: srv->task_workers = l; break;
		case O_MAX_MEMORY: srv->max_memory = (size_t) l; break;
		case O_TASK_MAX_PAYLOAD: srv->tasks.max_payload = (size_t) l; break;
		case O_MESSAGE_MAX_PAYLOAD: srv->messages.max_payload = (size_t) l; break;
		case O_ERROR_LOG: set_string(&srv->error_log_path, value); break;
		case O_CONCURRENCY: srv->cfg.max_concurrency = (uint32_t) l; break;
		case O_QUEUE_TIMEOUT: srv->cfg.queue_timeout_ns = ns; break;
		case O_LATENCY_TARGET: srv->cfg.latency_target_ns = ns; break;
		case O_SLOWLOG_TIMEOUT: srv->cfg.slowlog_timeout_ns = ns; break;
		case O_MAX_REQUESTS: srv->cfg.max_requests = (uint64_t) l; break;
		case O_MAX_CONNECTIONS: srv->cfg.max_connections = (uint32_t) l; break;
		case O_MAX_HEADER_SIZE: srv->cfg.limits.max_header_size = (size_t) l; break;
		case O_MAX_HEADER_COUNT: srv->cfg.limits.max_header_count = (size_t) l; break;
		case O_MAX_BODY_SIZE: srv->cfg.limits.max_body_size = (size_t) l; break;
		case O_BODY_BUFFER_SIZE: srv->cfg.body_buffer_size = (uint64_t) l; break;
		case O_MAX_BODY_DISCARD: srv->cfg.max_body_discard = (uint64_t) l; break;
		case O_READ_TIMEOUT: srv->cfg.read_timeout_ns = ns; break;
		case O_BODY_TIMEOUT: srv->cfg.body_timeout_ns = ns; break;
		case O_REQUEST_BUFFERING: srv->cfg.request_buffering = l != 0; break;
		case O_KEEPALIVE_TIMEOUT: srv->cfg.keepalive_timeout_ns = ns; break;
		case O_WRITE_TIMEOUT: srv->cfg.write_timeout_ns = ns; break;
		case O_TCP_KEEPALIVE: srv->cfg.tcp_keepalive = (int) l; break;
		case O_WEBSOCKET_MAX_MESSAGE_SIZE: srv->cfg.websocket_max_message = (uint64_t) l; break;
		case O_WEBSOCKET_CLOSE_TIMEOUT: srv->cfg.websocket_close_timeout_ns = ns; break;
		case O_WEBSOCKET_COMPRESSION: srv->cfg.websocket_compression = l != 0; break;
		case O_SHUTDOWN_TIMEOUT: srv->shutdown_timeout_ns = ns; break;
		case O_BACKLOG: srv->cfg.backlog = (int) l; break;
		case O_GZIP: srv->cfg.gzip = l != 0; break;
		case O_EARLY_HINTS: srv->cfg.early_hints = l != 0; break;
		case O_HTTP2: srv->cfg.http2 = l != 0; break;
		case O_HTTP2_MAX_CONCURRENT_STREAMS: srv->cfg.http2_max_streams = (uint32_t) l; break;
		case O_PROXY_PROTOCOL: srv->cfg.proxy_protocol = l != 0; break;
		case O_GZIP_LEVEL: srv->cfg.compress.gzip_level = (int) l; break;
		case O_BROTLI_LEVEL: srv->cfg.compress.brotli_level = (int) l; break;
		case O_ZSTD_LEVEL: srv->cfg.compress.zstd_level = (int) l; break;
		case O_COMPRESSION: set_codings(&srv->cfg.compress, value); break;
		case O_COMPRESSION_MIN_LENGTH: srv->cfg.compress.min_length = (size_t) l; break;
		case O_DEBUG: srv->debug = l != 0; break;
		case O_DOCUMENT_ROOT: set_string(&srv->document_root, value); break;
		case O_STATIC_PRECOMPRESSED: srv->cfg.static_precompressed = l != 0; break;
		case O_STATIC_COMPRESS_MAX_SIZE: srv->cfg.static_compress_max_size = (uint64_t) l; break;
		case O_STATIC_COMPRESS_CACHE: srv->cfg.static_compress_cache = (size_t) l; break;
		case O_PID_FILE: set_string(&srv->pid_file, value); break;
		case O_ACCESS_LOG: set_string(&srv->access_log_path, value); break;
		case O_ACCESS_LOG_FORMAT:
			srv->access_log_format = zend_string_equals_literal(Z_STR_P(value), "json") ? RAPIER_ACCESS_LOG_JSON
				: zend_string_equals_literal(Z_STR_P(value), "common") ? RAPIER_ACCESS_LOG_COMMON : -1;
			break;
		case O_TLS_CERT_FILE: set_string(&srv->tls_cert_file, value); break;
		case O_TLS_KEY_FILE: set_string(&srv->tls_key_file, value); break;
		case O_TLS_CIPHERS: set_string(&srv->tls_ciphers, value); break;
		case O_TLS_CLIENT_CA_FILE: set_string(&srv->tls_client_ca_file, value); break;
		case O_TLS_CRL_FILE: set_string(&srv->tls_crl_file, value); break;
		case O_TLS_VERIFY_DEPTH: srv->tls_verify_depth = (int) l; break;
		case O_TLS_CERTIFICATES: set_certificates(srv, value); break;
		case O_HTTP_PORT: srv->http_port = l; break;
		case O_HTTPS_REDIRECT: srv->https_redirect = l; srv->https_redirect_set = true; break;
		case O_TLS_VERIFY_CLIENT:
			srv->tls_verify_client_set = true;
			srv->tls_verify_client = zend_string_equals_literal(Z_STR_P(value), "require") ? RAPIER_HTTP_TLS_VERIFY_REQUIRE
				: zend_string_equals_literal(Z_STR_P(value), "optional") ? RAPIER_HTTP_TLS_VERIFY_OPTIONAL : -1;
			break;
		case O_TLS_MIN_VERSION:
			srv->tls_min_version = zend_string_equals_literal(Z_STR_P(value), "1.2") ? TLS1_2_VERSION
				: zend_string_equals_literal(Z_STR_P(value), "1.3") ? TLS1_3_VERSION : 0;
			break;
		case O_SERVER_NAME:
			set_string(&srv->server_name, value);
			srv->cfg.server_name = ZSTR_VAL(srv->server_name);
			break;
		case O_REAL_IP_HEADER:
			srv->cfg.real_ip_header = set_header_name(&srv->real_ip_header, value);
			srv->cfg.real_ip_forwarded = strcmp(srv->cfg.real_ip_header, "forwarded") == 0;
			break;
		case O_REAL_SCHEME_HEADER:
			srv->cfg.real_scheme_header = set_header_name(&srv->real_scheme_header, value);
			srv->cfg.real_scheme_forwarded = strcmp(srv->cfg.real_scheme_header, "forwarded") == 0;
			break;
		case O_REAL_IP_FROM: set_networks(srv, value); break;
	}
}

/* Each header trusted proxies name something in needs the proxies; the proxies need a header. */
static bool check_real_ip_options(server_t *srv)
{
	const char *header = srv->real_ip_header ? "real_ip_header" : srv->real_scheme_header ? "real_scheme_header" : NULL;

	if (header && srv->real_ip_from == NULL) {
		zend_argument_value_error(3, "option \"%s\" needs \"real_ip_from\": the proxies trusted to name the %s in it",
			header, srv->real_ip_header ? "client" : "client's scheme");
		return false;
	}
	if (header == NULL && srv->real_ip_from) {
		zend_argument_value_error(3, "option \"real_ip_from\" needs \"real_ip_header\" (the header those proxies "
			"name the client in) or \"real_scheme_header\" (the one they name its scheme in)");
		return false;
	}
	return true;
}

/* The HTTPS options need a certificate; the client-verification ones need tls_client_ca_file, which alone means "require". */
static bool check_tls_options(server_t *srv)
{
	if (srv->tls_min_version == 0) {
		zend_argument_value_error(3, "option \"tls_min_version\" must be \"1.2\" or \"1.3\"");
		return false;
	}
	if (srv->tls_verify_client < 0) {
		zend_argument_value_error(3, "option \"tls_verify_client\" must be \"require\" or \"optional\"");
		return false;
	}
	if (!srv->tls_cert_file && (srv->tls_key_file || srv->tls_ciphers || srv->tls_client_ca_file
			|| srv->tls_certificate_count)) {
		zend_argument_value_error(3, "option \"%s\" needs \"tls_cert_file\": HTTPS is served only with a certificate",
			srv->tls_key_file ? "tls_key_file" : srv->tls_ciphers ? "tls_ciphers"
			: srv->tls_client_ca_file ? "tls_client_ca_file" : "tls_certificates");
		return false;
	}
	if (!srv->tls_client_ca_file && (srv->tls_verify_client_set || srv->tls_verify_depth >= 0 || srv->tls_crl_file)) {
		zend_argument_value_error(3, "option \"%s\" needs \"tls_client_ca_file\": client certificates are verified "
			"against the authorities in that file", srv->tls_verify_client_set ? "tls_verify_client"
			: srv->tls_verify_depth >= 0 ? "tls_verify_depth" : "tls_crl_file");
		return false;
	}
	if (srv->tls_client_ca_file && !srv->tls_verify_client_set) {
		srv->tls_verify_client = RAPIER_HTTP_TLS_VERIFY_REQUIRE;
	}
	return true;
}

/* http_port is the plain-HTTP port beside HTTPS; https_redirect says what it does, and defaults to the HTTPS port. */
static bool check_http_port(server_t *srv)
{
	if (srv->http_port && !srv->tls_cert_file) {
		zend_argument_value_error(3, "option \"http_port\" needs \"tls_cert_file\": it adds a plain-HTTP port "
			"beside HTTPS (for plain HTTP alone, give the port as the constructor's port)");
		return false;
	}
	if (srv->https_redirect_set && !srv->http_port) {
		zend_argument_value_error(3, "option \"https_redirect\" needs \"http_port\": it says what the plain-HTTP "
			"port does");
		return false;
	}
	if (srv->http_port && srv->http_port == srv->port) {
		zend_argument_value_error(3, "option \"http_port\" must differ from the server's port " ZEND_LONG_FMT
			", which speaks HTTPS", srv->port);
		return false;
	}
	if (srv->http_port && srv->https_redirect < 0 && srv->port == 0) {
		zend_argument_value_error(3, "option \"https_redirect\" must name the HTTPS port clients reach, or be false, "
			"when the server's port is 0 (any free port)");
		return false;
	}
	if (srv->https_redirect < 0) {
		srv->https_redirect = srv->port;
	}
	return true;
}

bool rapier_http_server_parse_options(server_t *srv, HashTable *opts)
{
	zend_string *name;
	zval *value;

	ZEND_HASH_FOREACH_STR_KEY_VAL(opts, name, value) {
		const option_t *opt = name ? find_option(name) : NULL;
		zend_long l = 0;
		double d = 0;

		if (opt == NULL) {
			zend_argument_value_error(3, "contains an unknown option \"%s\" (see docs/http-server.md)",
				name ? ZSTR_VAL(name) : "(integer key)");
			return false;
		}
		if (!check_option(opt, value, &l, &d)) {
			return false;
		}
		apply_option(srv, opt, value, l, d);
	} ZEND_HASH_FOREACH_END();
	if (srv->access_log_format < 0) {
		zend_argument_value_error(3, "option \"access_log_format\" must be \"common\" or \"json\"");
		return false;
	}
	if (!check_tls_options(srv) || !check_http_port(srv)) {
		return false;
	}
	if (!check_real_ip_options(srv)) {
		return false;
	}
	if (srv->cfg.queue_timeout_ns && srv->cfg.max_concurrency == 0) {
		zend_argument_value_error(3, "option \"queue_timeout\" needs \"concurrency\" above 0: "
			"without a limit on concurrent handlers no request waits for one");
		return false;
	}
	if (srv->cfg.latency_target_ns && srv->cfg.max_concurrency < 2) {
		zend_argument_value_error(3, "option \"latency_target\" needs \"concurrency\" above 1: "
			"it adapts the limit on concurrent handlers between 1 and \"concurrency\"");
		return false;
	}
	/* The URL is part of the head: it cannot be longer than the head may be. */
	if (srv->cfg.limits.max_url_size > srv->cfg.limits.max_header_size) {
		srv->cfg.limits.max_url_size = srv->cfg.limits.max_header_size;
	}
	return true;
}

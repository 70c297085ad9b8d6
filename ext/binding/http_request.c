/*
 * Rapier\Http\Request: a copy of one parsed request.
 *
 * The parser's buffers are reused by the connection's next request, so
 * everything a handler may read later is copied out at dispatch: method,
 * target, decoded path, headers, body, peer. What costs more to build and
 * is often unused (query, cookies, post, files) is computed the first time
 * its readonly property is read: the slot stays uninitialised until then,
 * and the property handlers fill it in.
 *
 * Query strings and urlencoded bodies go through PHP's own treat_data, and
 * cookies and form fields through php_register_variable_ex, so arrays like
 * a[]=1&a[b]=2, max_input_vars and name mangling are exactly PHP's.
 * Uploaded files are written to upload_tmp_dir, registered with PHP so
 * move_uploaded_file() accepts them, and removed with the Request. A large
 * body of another type arrives in a temporary file of its own (http_upload.h):
 * body() reads it into memory on first call, bodyStream() reads it from the
 * file, saveBody() moves it where the application keeps it. With
 * request_buffering off the handler starts at the head, and the body is read
 * while it arrives (http_body.c): bodyStream() and php://input read it live,
 * body() and post wait for the rest of it.
 */
#include "php_rapier.h"
#include "SAPI.h"
#include "php_variables.h"
#include "php_open_temporary_file.h"
#include "php_memory_streams.h"
#include "ext/standard/file.h"
#include "ext/standard/url.h"
#include "zend_exceptions.h"
#include "zend_smart_str.h"

#include <time.h>
#include <unistd.h>

#include "http.h"
#include "http_body.h"
#include "multipart.h"
#include "http_request_arginfo.h"

zend_class_entry *rapier_ce_http_request;
static zend_object_handlers request_handlers;

/* Property slots, in the order the stub declares them. */
enum {
	PROP_METHOD, PROP_URI, PROP_PATH, PROP_QUERY, PROP_HEADERS, PROP_COOKIES, PROP_POST, PROP_FILES,
	PROP_REMOTE_ADDRESS, PROP_REMOTE_PORT,
};

typedef struct {
	zend_string *query_string;      /* raw, without '?' */
	zend_string *body;              /* NULL: none, or still only in body_file */
	zend_string *body_file;         /* a body spooled to a file while it arrived, or NULL */
	bool body_file_owned;           /* body_file is our temporary file, removed with the request */
	zend_long body_size;
	zend_string *protocol;          /* "HTTP/1.1" */
	uint64_t start_ns;              /* the request's first byte, rapier_now_ns() clock */
	double request_time;            /* start_ns as Unix time, once server() asked (0: not yet) */
	int local_port;
	const char *tls_version;        /* "TLSv1.3" when it came over HTTPS (OpenSSL's static names), else NULL */
	bool https;                     /* the client used HTTPS: to us (tls_version), or to the proxy that says so */
	const char *tls_cipher;
	bool tls_verifies_client;       /* the connection asked for a client certificate */
	rapier_http_tls_peer_t *tls_peer; /* the one the client sent, verified; NULL: none */
	zend_array *proxy_vars;         /* the connection's PROXY_PROTOCOL_TLV_* server variables, or NULL */
	HashTable *tmp_files;           /* uploaded files to remove with the request */
	rapier_upload_t *upload;        /* a multipart body spooled while it arrived, until post/files are built */
	rapier_http_body_t *live;       /* a body still arriving (request_buffering off) until body() took it whole */
	uint64_t body_buffer_size;      /* with live: the server's, for bufferBody() */
	const char *upload_tmp_dir;     /* with live: the server's (it lives as long as the process), or NULL */
	int64_t content_length;         /* the request's, -1 when it had none */
	bool lazy_ready;                /* query, cookies, post and files are filled in */
	zend_object std;
} request_t;

static inline request_t *request_from(zend_object *obj)
{
	return (request_t *) ((char *) obj - XtOffsetOf(request_t, std));
}

static zend_object *request_create(zend_class_entry *ce)
{
	request_t *req = zend_object_alloc(sizeof(request_t), ce);

	zend_object_std_init(&req->std, ce);
	object_properties_init(&req->std, ce);
	req->std.handlers = &request_handlers;
	return &req->std;
}

static void remove_tmp_file(zval *zv)
{
	zend_string *path = Z_STR_P(zv);

	if (SG(rfc1867_uploaded_files)) {
		zend_hash_del(SG(rfc1867_uploaded_files), path);
	}
	/* Gone already when the application moved it. */
	VCWD_UNLINK(ZSTR_VAL(path));
	zend_string_release(path);
}

static void request_free(zend_object *obj)
{
	request_t *req = request_from(obj);

	if (req->query_string) {
		zend_string_release(req->query_string);
	}
	if (req->body) {
		zend_string_release(req->body);
	}
	if (req->body_file) {
		if (req->body_file_owned) {
			VCWD_UNLINK(ZSTR_VAL(req->body_file));
		}
		zend_string_release(req->body_file);
	}
	if (req->protocol) {
		zend_string_release(req->protocol);
	}
	if (req->proxy_vars) {
		zend_array_release(req->proxy_vars);
	}
	if (req->tls_peer) {
		rapier_http_tls_peer_release(req->tls_peer);
	}
	if (req->tmp_files) {
		zend_hash_destroy(req->tmp_files);
		FREE_HASHTABLE(req->tmp_files);
	}
	if (req->upload) {
		rapier_upload_free(req->upload);
		free(req->upload);
	}
	if (req->live) {
		rapier_http_body_release(req->live);
	}
	zend_object_std_dtor(obj);
}

/* Construction at dispatch */

/*
 * Interned at MINIT, so they are permanent: interned later, with opcache
 * loaded, a string is only request-local (or not interned at all), and a
 * static cache of it would be freed under us.
 */
static const char *method_names[] = { "GET", "POST", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS" };
static zend_string *method_strings[sizeof(method_names) / sizeof(method_names[0])];

static zend_string *known_method(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(method_names) / sizeof(method_names[0]); i++) {
		if (ZSTR_LEN(method_strings[i]) == len && memcmp(method_names[i], name, len) == 0) {
			return method_strings[i];
		}
	}
	return zend_string_init(name, len, 0);
}

static void build_headers(zval *headers, const rapier_http_request_t *hr)
{
	array_init_size(headers, (uint32_t) hr->header_count);
	for (size_t i = 0; i < hr->header_count; i++) {
		const rapier_http_header_t *h = &hr->headers[i];
		zval *existing = zend_hash_str_find(Z_ARRVAL_P(headers), h->name, h->name_len);

		if (existing) {
			/* Repeated fields are one comma-separated list (RFC 9110 5.3); cookies use "; ". */
			bool cookie = h->name_len == 6 && memcmp(h->name, "cookie", 6) == 0;
			zend_string *joined = zend_string_concat3(Z_STRVAL_P(existing), Z_STRLEN_P(existing),
				cookie ? "; " : ", ", 2, h->value, h->value_len);
			zval_ptr_dtor(existing);
			ZVAL_STR(existing, joined);
		} else {
			zval value;
			ZVAL_STRINGL_FAST(&value, h->value, h->value_len);
			zend_hash_str_add_new(Z_ARRVAL_P(headers), h->name, h->name_len, &value);
		}
	}
}

/*
 * The wall-clock time of a moment on the monotonic clock. Worked out only
 * when a handler asks (server()): reading the wall clock for every request
 * would cost more than most handlers' use of it.
 */
static double unix_time_of(uint64_t monotonic_ns)
{
	struct timespec wall;
	uint64_t now_ns = rapier_now_ns();

	clock_gettime(CLOCK_REALTIME, &wall);
	return (double) wall.tv_sec + (double) wall.tv_nsec / 1e9 - (double) (now_ns - monotonic_ns) / 1e9;
}

static zend_string *decoded_path(const rapier_http_request_t *hr)
{
	zend_string *path = zend_string_init(hr->path, hr->path_len, 0);
	size_t len = ZSTR_LEN(path);

	/* %00 and malformed escapes keep the raw path: the handler sees what was sent. */
	if (memchr(hr->path, '%', hr->path_len) && rapier_http_decode_path(hr->path, hr->path_len, ZSTR_VAL(path), &len) == 0) {
		ZSTR_VAL(path)[len] = '\0';
		ZSTR_LEN(path) = len;
	} else {
		memcpy(ZSTR_VAL(path), hr->path, hr->path_len);
	}
	return path;
}

/*
 * The body: from the request buffer, or from a spool, which kept it in
 * memory or moved it to a file. A multipart spool stays whole until post
 * and files are built from it.
 */
/* A raw spool's body, in memory or in its file, becomes the request's; the spool is freed. */
static void take_spooled_body(request_t *req, rapier_upload_t *upload)
{
	rapier_upload_part_t *spooled = rapier_upload_body(upload);

	req->body_size = (zend_long) spooled->size;
	if (spooled->tmp_path) {
		req->body_file = zend_string_init(spooled->tmp_path, strlen(spooled->tmp_path), 0);
		req->body_file_owned = true;
		/* From here on the request removes it. */
		free(spooled->tmp_path);
		spooled->tmp_path = NULL;
	} else if (spooled->value_len) {
		req->body = zend_string_init(spooled->value, spooled->value_len, 0);
	}
	rapier_upload_free(upload);
	free(upload);
}

static void take_body(request_t *req, const rapier_http_request_t *hr, rapier_upload_t *upload)
{
	if (upload && rapier_upload_body(upload)) {
		take_spooled_body(req, upload);
		return;
	}
	req->body = hr->body_len ? zend_string_init(hr->body, hr->body_len, 0) : NULL;
	req->body_size = (zend_long) hr->body_len;
	req->upload = upload;
}

void rapier_http_request_new(zval *out, rapier_http_conn_t *conn)
{
	const rapier_http_request_t *hr = rapier_http_conn_request(conn);
	zend_object *obj;
	request_t *req;
	rapier_http_tls_t *tls;
	const char *addr;
	int port;

	object_init_ex(out, rapier_ce_http_request);
	obj = Z_OBJ_P(out);
	req = request_from(obj);
	ZVAL_STR(OBJ_PROP_NUM(obj, PROP_METHOD), known_method(hr->method_name, strlen(hr->method_name)));
	ZVAL_STRINGL(OBJ_PROP_NUM(obj, PROP_URI), hr->target, hr->target_len);
	ZVAL_STR(OBJ_PROP_NUM(obj, PROP_PATH), decoded_path(hr));
	build_headers(OBJ_PROP_NUM(obj, PROP_HEADERS), hr);
	addr = rapier_http_conn_peer(conn, &port);
	ZVAL_STRING(OBJ_PROP_NUM(obj, PROP_REMOTE_ADDRESS), addr);
	ZVAL_LONG(OBJ_PROP_NUM(obj, PROP_REMOTE_PORT), port);

	req->query_string = hr->query ? zend_string_init(hr->query, hr->query_len, 0) : NULL;
	req->protocol = hr->version_major == 2 ? zend_string_init("HTTP/2.0", 8, 0)
		: hr->version_minor == 0 ? zend_string_init("HTTP/1.0", 8, 0) : zend_string_init("HTTP/1.1", 8, 0);
	req->start_ns = conn->request_start_ns;
	req->local_port = conn->local_port;
	if ((tls = rapier_http_conn_tls(conn)) != NULL) {
		req->tls_version = rapier_http_tls_version(tls);
		req->tls_cipher = rapier_http_tls_cipher(tls);
		req->tls_verifies_client = rapier_http_tls_verifies_client(tls);
		req->tls_peer = rapier_http_tls_peer(tls);
	}
	if ((req->proxy_vars = conn->proxy_vars) != NULL) {
		GC_ADDREF(req->proxy_vars);
	}
	/* real_scheme_header: a trusted proxy that terminated TLS (or did not) says how the client came. */
	req->https = conn->client_https >= 0 ? conn->client_https == 1 : req->tls_version != NULL;
	req->content_length = hr->content_length;
	if (conn->body) {
		req->live = conn->body;
		rapier_http_body_addref(req->live);
		req->body_buffer_size = conn->server->cfg.body_buffer_size;
		req->upload_tmp_dir = conn->server->cfg.upload_tmp_dir;
		return;
	}
	take_body(req, hr, rapier_http_conn_take_upload(conn));
}

/* Lazy properties */

static void parse_urlencoded(zval *into, zend_string *data)
{
	array_init(into);
	if (data && ZSTR_LEN(data) > 0) {
		/* treat_data takes ownership of the buffer. */
		sapi_module.treat_data(PARSE_STRING, estrndup(ZSTR_VAL(data), ZSTR_LEN(data)), into);
	}
}

static void parse_cookies(zval *into, zval *headers)
{
	zval *header = zend_hash_str_find(Z_ARRVAL_P(headers), ZEND_STRL("cookie"));
	const char *cursor, *end;
	rapier_http_cookie_t cookie;

	array_init(into);
	if (header == NULL) {
		return;
	}
	cursor = Z_STRVAL_P(header);
	end = cursor + Z_STRLEN_P(header);
	while (rapier_http_cookie_next(&cursor, end, &cookie) == 1) {
		char *name = estrndup(cookie.name, cookie.name_len);
		zval value;
		size_t len;

		ZVAL_STRINGL(&value, cookie.value, cookie.value_len);
		/* As PHP does for $_COOKIE: values are raw-url-decoded ("+" stays "+", base64 values
		 * survive), and the first of two cookies with one name is kept. */
		len = php_raw_url_decode(Z_STRVAL(value), Z_STRLEN(value));
		Z_STRLEN(value) = len;
		Z_STRVAL(value)[len] = '\0';
		if (!zend_symtable_str_exists(Z_ARRVAL_P(into), name, strlen(name))) {
			php_register_variable_ex(name, &value, into);
		} else {
			zval_ptr_dtor(&value);
		}
		efree(name);
	}
}

typedef struct {
	request_t *req;
	zval *post;
	zval *files;
	char *field;                    /* current part's field name */
	zend_string *filename;
	zend_string *content_type;
	smart_str value;                /* a text field's value */
	int fd;                         /* a file part's temporary file, or -1 */
	zend_string *tmp_path;
	size_t size;
	int error;                      /* UPLOAD_ERR_* for the current file */
} multipart_ctx_t;

static int on_part_begin(void *data, const rapier_multipart_part_t *part)
{
	multipart_ctx_t *ctx = data;

	ctx->field = estrndup(part->name, part->name_len);
	ctx->size = 0;
	ctx->error = 0;
	ctx->fd = -1;
	ctx->tmp_path = NULL;
	ctx->filename = NULL;
	ctx->content_type = NULL;
	if (part->filename == NULL) {
		return 0;
	}
	ctx->filename = zend_string_init(part->filename, part->filename_len, 0);
	ctx->content_type = zend_string_init(part->content_type ? part->content_type : "", part->content_type_len, 0);
	if (part->filename_len == 0) {
		ctx->error = 4; /* UPLOAD_ERR_NO_FILE */
		return 0;
	}
	ctx->fd = php_open_temporary_fd_ex(PG(upload_tmp_dir), "php", &ctx->tmp_path,
		PHP_TMP_FILE_OPEN_BASEDIR_CHECK_ON_FALLBACK);
	if (ctx->fd < 0) {
		ctx->error = 6; /* UPLOAD_ERR_NO_TMP_DIR */
	}
	return 0;
}

static int on_part_data(void *data, const char *buf, size_t len)
{
	multipart_ctx_t *ctx = data;

	if (ctx->filename == NULL) {
		smart_str_appendl(&ctx->value, buf, len);
		return 0;
	}
	if (ctx->fd >= 0 && ctx->error == 0) {
		while (len > 0) {
			ssize_t n = write(ctx->fd, buf, len);
			if (n < 0) {
				if (errno == EINTR) {
					continue;
				}
				ctx->error = 7; /* UPLOAD_ERR_CANT_WRITE: a full disk */
				break;
			}
			buf += n;
			len -= (size_t) n;
			ctx->size += (size_t) n;
		}
	}
	return 0;
}

/* Registers $files["base"][$key]rest, the transposed shape PHP gives $_FILES. */
static void register_file_entry(multipart_ctx_t *ctx, const char *key, zval *value)
{
	const char *bracket = strchr(ctx->field, '[');
	size_t base_len = bracket ? (size_t) (bracket - ctx->field) : strlen(ctx->field);
	char *name = emalloc(strlen(ctx->field) + strlen(key) + 3);

	sprintf(name, "%.*s[%s]%s", (int) base_len, ctx->field, key, bracket ? bracket : "");
	php_register_variable_ex(name, value, ctx->files);
	efree(name);
}

static void finish_file_part(multipart_ctx_t *ctx)
{
	zval zv;

	if (ctx->fd >= 0) {
		close(ctx->fd);
	}
	if (ctx->tmp_path && ctx->error == 0) {
		zval path;
		if (!ctx->req->tmp_files) {
			ALLOC_HASHTABLE(ctx->req->tmp_files);
			zend_hash_init(ctx->req->tmp_files, 4, NULL, remove_tmp_file, 0);
		}
		ZVAL_STR_COPY(&path, ctx->tmp_path);
		zend_hash_next_index_insert(ctx->req->tmp_files, &path);
		if (SG(rfc1867_uploaded_files) == NULL) {
			ALLOC_HASHTABLE(SG(rfc1867_uploaded_files));
			zend_hash_init(SG(rfc1867_uploaded_files), 8, NULL, NULL, 0);
		}
		zend_hash_add_empty_element(SG(rfc1867_uploaded_files), ctx->tmp_path);
	} else if (ctx->tmp_path) {
		VCWD_UNLINK(ZSTR_VAL(ctx->tmp_path));
	}
	size_t base_len;
	const char *base = rapier_multipart_basename(ZSTR_VAL(ctx->filename), ZSTR_LEN(ctx->filename), &base_len);
	ZVAL_STRINGL(&zv, base, base_len);
	register_file_entry(ctx, "name", &zv);
	ZVAL_STR_COPY(&zv, ctx->filename);
	register_file_entry(ctx, "full_path", &zv);
	ZVAL_STR_COPY(&zv, ctx->content_type);
	register_file_entry(ctx, "type", &zv);
	if (ctx->tmp_path && ctx->error == 0) {
		ZVAL_STR_COPY(&zv, ctx->tmp_path);
	} else {
		ZVAL_EMPTY_STRING(&zv);
	}
	register_file_entry(ctx, "tmp_name", &zv);
	ZVAL_LONG(&zv, ctx->error);
	register_file_entry(ctx, "error", &zv);
	ZVAL_LONG(&zv, ctx->error ? 0 : (zend_long) ctx->size);
	register_file_entry(ctx, "size", &zv);
}

static void clear_part(multipart_ctx_t *ctx)
{
	if (ctx->field) {
		efree(ctx->field);
		ctx->field = NULL;
	}
	if (ctx->filename) {
		zend_string_release(ctx->filename);
		ctx->filename = NULL;
	}
	if (ctx->content_type) {
		zend_string_release(ctx->content_type);
		ctx->content_type = NULL;
	}
	if (ctx->tmp_path) {
		zend_string_release(ctx->tmp_path);
		ctx->tmp_path = NULL;
	}
	ctx->fd = -1;
	smart_str_free(&ctx->value);
}

static int on_part_end(void *data)
{
	multipart_ctx_t *ctx = data;

	if (ctx->filename) {
		finish_file_part(ctx);
	} else {
		zval value;
		smart_str_0(&ctx->value);
		if (ctx->value.s) {
			ZVAL_STR(&value, ctx->value.s);
			ctx->value.s = NULL;
		} else {
			ZVAL_EMPTY_STRING(&value);
		}
		php_register_variable_ex(ctx->field, &value, ctx->post);
	}
	clear_part(ctx);
	return 0;
}

static void parse_multipart(request_t *req, zval *post, zval *files, zval *content_type)
{
	rapier_multipart_t mp;
	rapier_multipart_callbacks_t cb = { on_part_begin, on_part_data, on_part_end };
	multipart_ctx_t ctx = { .req = req, .post = post, .files = files, .fd = -1 };
	const char *boundary;
	size_t boundary_len;

	if (req->body == NULL
			|| rapier_multipart_boundary(Z_STRVAL_P(content_type), Z_STRLEN_P(content_type), &boundary, &boundary_len) != 0
			|| rapier_multipart_init(&mp, boundary, boundary_len, NULL, &cb, &ctx) != 0) {
		return;
	}
	if (rapier_multipart_feed(&mp, ZSTR_VAL(req->body), ZSTR_LEN(req->body)) != 0 || rapier_multipart_finish(&mp) != 0) {
		php_error_docref(NULL, E_WARNING, "Malformed multipart/form-data body: %s", mp.error ? mp.error : "parse error");
		if (ctx.fd >= 0) {
			close(ctx.fd);
		}
		if (ctx.tmp_path) {
			VCWD_UNLINK(ZSTR_VAL(ctx.tmp_path));
		}
	}
	clear_part(&ctx);
	rapier_multipart_free(&mp);
}

/* post and files from a body spooled while it arrived; the request takes over the temporary files. */
static void build_from_upload(request_t *req, zval *post, zval *files)
{
	multipart_ctx_t ctx = { .req = req, .post = post, .files = files, .fd = -1 };

	bool over_count = false;

	for (rapier_upload_part_t *part = req->upload->parts; part; part = part->next) {
		zval value;

		if (part->skipped) {
			/* PHP's words and levels, as php-fpm logs them. */
			if (!over_count) {
				php_error_docref(NULL, E_WARNING, "Maximum number of allowable file uploads has been exceeded");
				over_count = true;
			}
			continue;
		}
		if (part->error == RAPIER_UPLOAD_ERR_INI_SIZE || part->error == RAPIER_UPLOAD_ERR_FORM_SIZE) {
			php_error_docref(NULL, E_NOTICE, "%s of %" PRIu64 " bytes exceeded - file [%s=%.*s] not saved",
				part->error == RAPIER_UPLOAD_ERR_INI_SIZE ? "upload_max_filesize" : "MAX_FILE_SIZE",
				part->error == RAPIER_UPLOAD_ERR_INI_SIZE ? req->upload->max_file_size : req->upload->form_max_file_size,
				part->name, (int) part->filename_len, part->filename);
		}
		if (part->filename == NULL) {
			ZVAL_STRINGL(&value, part->value ? part->value : "", part->value_len);
			php_register_variable_ex(part->name, &value, post);
			continue;
		}
		ctx.field = estrdup(part->name);
		ctx.filename = zend_string_init(part->filename, part->filename_len, 0);
		ctx.content_type = zend_string_init(part->content_type, strlen(part->content_type), 0);
		ctx.tmp_path = part->tmp_path ? zend_string_init(part->tmp_path, strlen(part->tmp_path), 0) : NULL;
		ctx.size = (size_t) part->size;
		ctx.error = part->error;
		if (part->tmp_path) {
			/* From here on the request's list removes it. */
			free(part->tmp_path);
			part->tmp_path = NULL;
		}
		finish_file_part(&ctx);
		clear_part(&ctx);
	}
	rapier_upload_free(req->upload);
	free(req->upload);
	req->upload = NULL;
}

/*
 * The body as a string: a spooled one is read from its file once, on first
 * use. NULL for none; also when the file cannot be read whole (the
 * application removed or changed it), with *failed set.
 */
static zend_string *load_body(request_t *req, bool *failed)
{
	php_stream *stream;

	*failed = false;
	if (req->body || req->body_file == NULL) {
		return req->body;
	}
	if ((stream = php_stream_open_wrapper(ZSTR_VAL(req->body_file), "rb", 0, NULL)) != NULL) {
		req->body = php_stream_copy_to_mem(stream, PHP_STREAM_COPY_ALL, 0);
		php_stream_close(stream);
	}
	if (req->body == NULL || (zend_long) ZSTR_LEN(req->body) != req->body_size) {
		if (req->body) {
			zend_string_release(req->body);
			req->body = NULL;
		}
		*failed = true;
	}
	return req->body;
}

/*
 * A body still arriving is read to its end and kept, as if it had come
 * whole: false with an exception thrown when the rest will not come, or
 * when a stream took part of it already.
 */
static bool live_body_untouched(request_t *req)
{
	if (req->live->taken > 0) {
		zend_throw_exception(rapier_ce_exception, "Part of the request body was read already (bodyStream(), "
			"php://input): the rest of it is only on that stream", 0);
		return false;
	}
	return true;
}

static void live_body_settled(request_t *req)
{
	rapier_http_body_release(req->live);
	req->live = NULL;
}

static bool settle_live_body(request_t *req)
{
	zend_string *rest;

	if (req->live == NULL) {
		return true;
	}
	if (!live_body_untouched(req) || (rest = rapier_http_body_read_rest(req->live)) == NULL) {
		return false;
	}
	req->body_size = (zend_long) ZSTR_LEN(rest);
	if (ZSTR_LEN(rest) > 0) {
		req->body = rest;
	} else {
		zend_string_release(rest);
	}
	live_body_settled(req);
	return true;
}

static const char body_file_gone[] =
	"The request body's file %s cannot be read whole: it was removed or changed (saveBody() keeps a body)";

static bool content_type_is(zval *content_type, const char *type, size_t len)
{
	return content_type && Z_STRLEN_P(content_type) >= len && strncasecmp(Z_STRVAL_P(content_type), type, len) == 0
		&& (Z_STRLEN_P(content_type) == len || Z_STRVAL_P(content_type)[len] == ';'
			|| Z_STRVAL_P(content_type)[len] == ' ');
}

static void fill_lazy(zend_object *obj)
{
	request_t *req = request_from(obj);
	zval *headers = OBJ_PROP_NUM(obj, PROP_HEADERS);
	zval *content_type, *post = OBJ_PROP_NUM(obj, PROP_POST), *files = OBJ_PROP_NUM(obj, PROP_FILES);

	if (req->lazy_ready) {
		return;
	}
	req->lazy_ready = true;
	parse_urlencoded(OBJ_PROP_NUM(obj, PROP_QUERY), req->query_string);
	parse_cookies(OBJ_PROP_NUM(obj, PROP_COOKIES), headers);
	content_type = zend_hash_str_find(Z_ARRVAL_P(headers), ZEND_STRL("content-type"));
	array_init(files);
	if (content_type_is(content_type, ZEND_STRL("application/x-www-form-urlencoded"))) {
		bool failed;
		zend_string *body;

		if (!settle_live_body(req)) {
			array_init(post);   /* typed: it must hold an array even as the exception leaves */
			return;
		}
		body = load_body(req, &failed);

		if (failed) {
			php_error_docref(NULL, E_WARNING, body_file_gone, ZSTR_VAL(req->body_file));
		}
		parse_urlencoded(post, body);
	} else {
		array_init(post);
		if (req->upload) {
			build_from_upload(req, post, files);
		} else if (content_type_is(content_type, ZEND_STRL("multipart/form-data"))) {
			parse_multipart(req, post, files, content_type);
		}
	}
}

static bool is_lazy(zend_string *name)
{
	return zend_string_equals_literal(name, "query") || zend_string_equals_literal(name, "cookies")
		|| zend_string_equals_literal(name, "post") || zend_string_equals_literal(name, "files");
}

static zval *request_read_property(zend_object *obj, zend_string *name, int type, void **cache_slot, zval *rv)
{
	if (is_lazy(name)) {
		fill_lazy(obj);
	}
	return zend_std_read_property(obj, name, type, cache_slot, rv);
}

static int request_has_property(zend_object *obj, zend_string *name, int check_empty, void **cache_slot)
{
	if (is_lazy(name)) {
		fill_lazy(obj);
	}
	return zend_std_has_property(obj, name, check_empty, cache_slot);
}

static HashTable *request_get_properties(zend_object *obj)
{
	fill_lazy(obj);
	return zend_std_get_properties(obj);
}

static zval *request_get_property_ptr_ptr(zend_object *obj, zend_string *name, int type, void **cache_slot)
{
	if (is_lazy(name)) {
		fill_lazy(obj);
	}
	return zend_std_get_property_ptr_ptr(obj, name, type, cache_slot);
}

/* Methods */

ZEND_METHOD(Rapier_Http_Request, __construct)
{
}

ZEND_METHOD(Rapier_Http_Request, header)
{
	zend_string *name, *lower;
	zval *value;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(name)
	ZEND_PARSE_PARAMETERS_END();

	lower = zend_string_tolower(name);
	value = zend_hash_find(Z_ARRVAL_P(OBJ_PROP_NUM(Z_OBJ_P(ZEND_THIS), PROP_HEADERS)), lower);
	zend_string_release(lower);
	if (value == NULL) {
		RETURN_NULL();
	}
	RETURN_COPY(value);
}

ZEND_METHOD(Rapier_Http_Request, body)
{
	request_t *req = request_from(Z_OBJ_P(ZEND_THIS));
	bool failed;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!settle_live_body(req)) {
		RETURN_THROWS();
	}
	if (load_body(req, &failed) == NULL && failed) {
		zend_throw_exception_ex(rapier_ce_exception, 0, body_file_gone, ZSTR_VAL(req->body_file));
		RETURN_THROWS();
	}
	if (req->body == NULL) {
		RETURN_EMPTY_STRING();
	}
	RETURN_STR_COPY(req->body);
}

ZEND_METHOD(Rapier_Http_Request, bodySize)
{
	request_t *req = request_from(Z_OBJ_P(ZEND_THIS));

	ZEND_PARSE_PARAMETERS_NONE();
	if (req->live) {
		RETURN_LONG((zend_long) rapier_http_body_size(req->live, req->content_length));
	}
	RETURN_LONG(req->body_size);
}

ZEND_METHOD(Rapier_Http_Request, bodyFile)
{
	request_t *req = request_from(Z_OBJ_P(ZEND_THIS));

	ZEND_PARSE_PARAMETERS_NONE();
	if (req->body_file == NULL) {
		RETURN_NULL();
	}
	RETURN_STR_COPY(req->body_file);
}

ZEND_METHOD(Rapier_Http_Request, bufferBody)
{
	request_t *req = request_from(Z_OBJ_P(ZEND_THIS));
	rapier_upload_t *spool;
	size_t memory_max;

	ZEND_PARSE_PARAMETERS_NONE();
	if (req->live == NULL) {
		return;
	}
	if (req->body_buffer_size == 0 || req->upload_tmp_dir == NULL) {
		/* body_buffer_size 0: every body is kept in memory, as the server keeps a buffered one. */
		if (!settle_live_body(req)) {
			RETURN_THROWS();
		}
		return;
	}
	/* A body announced past body_buffer_size goes to its file from the first byte, as the server spools it. */
	memory_max = req->content_length > 0 && (uint64_t) req->content_length > req->body_buffer_size ? 0
		: (size_t) req->body_buffer_size;
	if (!live_body_untouched(req) || (spool = rapier_http_body_spool(req->live, memory_max, req->upload_tmp_dir)) == NULL) {
		RETURN_THROWS();
	}
	take_spooled_body(req, spool);
	live_body_settled(req);
}

ZEND_METHOD(Rapier_Http_Request, setMaxBodySize)
{
	request_t *req = request_from(Z_OBJ_P(ZEND_THIS));
	zend_long bytes = 0;
	bool unlimited = true;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG_OR_NULL(bytes, unlimited)
	ZEND_PARSE_PARAMETERS_END();
	if (!unlimited && bytes < 0) {
		zend_argument_value_error(1, "must be greater than or equal to 0, or null for no limit");
		RETURN_THROWS();
	}
	if (req->live) {
		rapier_http_body_set_max_size(req->live, unlimited ? UINT64_MAX : (uint64_t) bytes);
	}
}

ZEND_METHOD(Rapier_Http_Request, setBodyTimeout)
{
	request_t *req = request_from(Z_OBJ_P(ZEND_THIS));
	double seconds = 0;
	bool unlimited = true;
	int64_t timeout_ns = -1;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_DOUBLE_OR_NULL(seconds, unlimited)
	ZEND_PARSE_PARAMETERS_END();
	if (!unlimited) {
		if (!(seconds > 0)) {
			zend_argument_value_error(1, "must be greater than 0, or null for no limit");
			RETURN_THROWS();
		}
		if ((timeout_ns = rapier_timeout_arg_ns(seconds, 1)) == -2) {
			RETURN_THROWS();
		}
	}
	if (req->live) {
		rapier_http_body_set_timeout(req->live, timeout_ns);
	}
}

/*
 * A new read-only stream over the body, from its start; over what is still
 * to come of a body read while it arrives. NULL when its file is gone.
 */
static php_stream *open_body_stream(request_t *req)
{
	if (req->live) {
		return rapier_http_body_stream_open(req->live);
	}
	if (req->body || req->body_file == NULL) {
		return php_stream_memory_open(TEMP_STREAM_READONLY, req->body ? req->body : ZSTR_EMPTY_ALLOC());
	}
	return php_stream_open_wrapper(ZSTR_VAL(req->body_file), "rb", 0, NULL);
}

php_stream *rapier_http_request_input(zend_object *request)
{
	return open_body_stream(request_from(request));
}

ZEND_METHOD(Rapier_Http_Request, bodyStream)
{
	request_t *req = request_from(Z_OBJ_P(ZEND_THIS));
	php_stream *stream;

	ZEND_PARSE_PARAMETERS_NONE();
	if ((stream = open_body_stream(req)) == NULL) {
		zend_throw_exception_ex(rapier_ce_exception, 0, body_file_gone, req->body_file ? ZSTR_VAL(req->body_file) : "");
		RETURN_THROWS();
	}
	php_stream_to_zval(stream, return_value);
}

/*
 * The body copied to a new file at path (any stream wrapper), from the
 * stream bodyStream() gives. False with errno set, and no partial plain
 * file left behind, when it fails.
 */
static bool copy_body(request_t *req, const char *path, bool plain)
{
	php_stream *out = php_stream_open_wrapper((char *) path, "wb", 0, NULL);
	php_stream *in;
	bool copied;
	int saved_errno;

	if (out == NULL) {
		return false;
	}
	in = open_body_stream(req);
	copied = in && php_stream_copy_to_stream_ex(in, out, PHP_STREAM_COPY_ALL, NULL) == SUCCESS;
	saved_errno = errno;
	if (in) {
		php_stream_close(in);
	}
	if (php_stream_close(out) != 0 && copied) {
		copied = false;
		saved_errno = errno;
	}
	if (!copied && plain) {
		VCWD_UNLINK(path);
	}
	errno = saved_errno;
	return copied;
}

/* The application owns the body's file from now on: it is no longer removed with the request. */
static void hand_over_body_file(request_t *req, zend_string *path)
{
	zend_string_release(req->body_file);
	req->body_file = zend_string_copy(path);
	req->body_file_owned = false;
}

/*
 * Our own temporary file is renamed, which is instant on the file system of
 * upload_tmp_dir, and copied anywhere else; once it belongs to the
 * application (a second save) it is copied, and a body in memory is written
 * out. False with errno set when it fails.
 */
static bool save_body(request_t *req, zend_string *path, bool plain)
{
	if (req->body_file && req->body_file_owned && plain) {
		if (VCWD_RENAME(ZSTR_VAL(req->body_file), ZSTR_VAL(path)) == 0) {
			mode_t mask = umask(0);

			/* The temporary file was private (0600); the saved one gets a new file's mode, as move_uploaded_file() does. */
			umask(mask);
			VCWD_CHMOD(ZSTR_VAL(path), 0666 & ~mask);
			hand_over_body_file(req, path);
			return true;
		}
		if (errno != EXDEV) {
			return false;
		}
	}
	if (!copy_body(req, ZSTR_VAL(path), plain)) {
		return false;
	}
	if (req->body_file && req->body_file_owned) {
		VCWD_UNLINK(ZSTR_VAL(req->body_file));
		hand_over_body_file(req, path);
	}
	return true;
}

ZEND_METHOD(Rapier_Http_Request, saveBody)
{
	request_t *req = request_from(Z_OBJ_P(ZEND_THIS));
	zend_string *path;
	bool plain;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_PATH_STR(path)
	ZEND_PARSE_PARAMETERS_END();

	if (ZSTR_LEN(path) == 0) {
		zend_argument_value_error(1, "must not be empty");
		RETURN_THROWS();
	}
	plain = php_stream_locate_url_wrapper(ZSTR_VAL(path), NULL, 0) == &php_plain_files_wrapper;
	if (plain && php_check_open_basedir_ex(ZSTR_VAL(path), 0)) {
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot save the request body to %s: the path is outside open_basedir",
			ZSTR_VAL(path));
		RETURN_THROWS();
	}
	if (req->body_file && zend_string_equals(req->body_file, path)) {
		return;
	}
	errno = 0;
	if (!save_body(req, path, plain)) {
		if (EG(exception)) {
			/* A body read while it arrives did not come whole: that exception says why. */
			RETURN_THROWS();
		}
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot save the request body to %s: %s", ZSTR_VAL(path),
			errno ? strerror(errno) : "the stream could not be written");
		RETURN_THROWS();
	}
}

static void add_header_vars(zval *server, zval *headers)
{
	zend_string *name;
	zval *value;

	ZEND_HASH_FOREACH_STR_KEY_VAL(Z_ARRVAL_P(headers), name, value) {
		char key[256];
		size_t len, off;
		bool plain;

		if (name == NULL) {
			continue;
		}
		len = ZSTR_LEN(name);
		plain = (len == 12 && memcmp(ZSTR_VAL(name), "content-type", 12) == 0)
			|| (len == 14 && memcmp(ZSTR_VAL(name), "content-length", 14) == 0);
		off = plain ? 0 : 5;
		if (len + off >= sizeof(key)) {
			continue;
		}
		if (!plain) {
			memcpy(key, "HTTP_", 5);
		}
		for (size_t i = 0; i < len; i++) {
			char c = ZSTR_VAL(name)[i];
			key[off + i] = c == '-' ? '_' : (char) toupper((unsigned char) c);
		}
		key[off + len] = '\0';
		Z_TRY_ADDREF_P(value);
		add_assoc_zval_ex(server, key, off + len, value);
	} ZEND_HASH_FOREACH_END();
}

/* mod_ssl's names for the client's certificate, as nginx's fastcgi setups pass them on. */
static void add_client_certificate_vars(zval *server, const rapier_http_tls_peer_t *peer)
{
	static const struct {
		const char *name;
		rapier_http_tls_peer_field_t field;
	} vars[] = {
		{ "SSL_CLIENT_S_DN", RAPIER_HTTP_TLS_PEER_SUBJECT },
		{ "SSL_CLIENT_I_DN", RAPIER_HTTP_TLS_PEER_ISSUER },
		{ "SSL_CLIENT_M_SERIAL", RAPIER_HTTP_TLS_PEER_SERIAL },
		{ "SSL_CLIENT_V_START", RAPIER_HTTP_TLS_PEER_NOT_BEFORE },
		{ "SSL_CLIENT_V_END", RAPIER_HTTP_TLS_PEER_NOT_AFTER },
		{ "SSL_CLIENT_CERT", RAPIER_HTTP_TLS_PEER_PEM },
	};

	add_assoc_string(server, "SSL_CLIENT_VERIFY", peer ? "SUCCESS" : "NONE");
	if (peer == NULL) {
		return;
	}
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		size_t len;
		char *text = rapier_http_tls_peer_field(peer, vars[i].field, &len);

		if (text == NULL) {
			zend_error_noreturn(E_ERROR, "Out of memory describing the client certificate");
		}
		add_assoc_stringl(server, vars[i].name, text, len);
		free(text);
	}
}

ZEND_METHOD(Rapier_Http_Request, server)
{
	zend_object *obj = Z_OBJ_P(ZEND_THIS);
	request_t *req = request_from(obj);

	ZEND_PARSE_PARAMETERS_NONE();
	if (req->request_time == 0) {
		req->request_time = unix_time_of(req->start_ns);
	}
	array_init_size(return_value, 24);
	add_assoc_str(return_value, "REQUEST_METHOD", zend_string_copy(Z_STR_P(OBJ_PROP_NUM(obj, PROP_METHOD))));
	add_assoc_str(return_value, "REQUEST_URI", zend_string_copy(Z_STR_P(OBJ_PROP_NUM(obj, PROP_URI))));
	add_assoc_str(return_value, "PATH_INFO", zend_string_copy(Z_STR_P(OBJ_PROP_NUM(obj, PROP_PATH))));
	add_assoc_str(return_value, "QUERY_STRING", req->query_string ? zend_string_copy(req->query_string) : ZSTR_EMPTY_ALLOC());
	add_assoc_str(return_value, "SERVER_PROTOCOL", zend_string_copy(req->protocol));
	add_assoc_string(return_value, "SERVER_SOFTWARE", "Rapier/" PHP_RAPIER_VERSION);
	add_assoc_long(return_value, "SERVER_PORT", req->local_port);
	add_assoc_string(return_value, "REQUEST_SCHEME", req->https ? "https" : "http");
	if (req->https) {
		/* The names of nginx's fastcgi_params and Apache's mod_ssl, which frameworks read. */
		add_assoc_string(return_value, "HTTPS", "on");
	}
	if (req->tls_version) {
		add_assoc_string(return_value, "SSL_PROTOCOL", (char *) req->tls_version);
		add_assoc_string(return_value, "SSL_CIPHER", (char *) req->tls_cipher);
		if (req->tls_verifies_client) {
			add_client_certificate_vars(return_value, req->tls_peer);
		}
	}
	if (req->proxy_vars) {
		zend_hash_merge(Z_ARRVAL_P(return_value), req->proxy_vars, zval_add_ref, true);
	}
	add_assoc_str(return_value, "REMOTE_ADDR", zend_string_copy(Z_STR_P(OBJ_PROP_NUM(obj, PROP_REMOTE_ADDRESS))));
	add_assoc_long(return_value, "REMOTE_PORT", Z_LVAL_P(OBJ_PROP_NUM(obj, PROP_REMOTE_PORT)));
	add_assoc_long(return_value, "REQUEST_TIME", (zend_long) req->request_time);
	add_assoc_double(return_value, "REQUEST_TIME_FLOAT", req->request_time);
	add_header_vars(return_value, OBJ_PROP_NUM(obj, PROP_HEADERS));
}

void rapier_http_request_class_minit(void)
{
	for (size_t i = 0; i < sizeof(method_names) / sizeof(method_names[0]); i++) {
		method_strings[i] = zend_string_init_interned(method_names[i], strlen(method_names[i]), 1);
	}
	rapier_ce_http_request = register_class_Rapier_Http_Request();
	rapier_ce_http_request->create_object = request_create;
	memcpy(&request_handlers, &std_object_handlers, sizeof(request_handlers));
	request_handlers.offset = XtOffsetOf(request_t, std);
	request_handlers.free_obj = request_free;
	request_handlers.clone_obj = NULL;
	request_handlers.read_property = request_read_property;
	request_handlers.has_property = request_has_property;
	request_handlers.get_properties = request_get_properties;
	request_handlers.get_property_ptr_ptr = request_get_property_ptr_ptr;
}

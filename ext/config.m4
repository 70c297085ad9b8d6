dnl Rapier extension build: phpize && ./configure && make
dnl The module lands in modules/rapier.so.

PHP_ARG_ENABLE([rapier],
  [whether to enable Rapier],
  [AS_HELP_STRING([--enable-rapier], [Enable Rapier coroutines and application server])],
  [yes])

PHP_ARG_ENABLE([rapier-debug],
  [whether to build Rapier with -O0 -g],
  [AS_HELP_STRING([--enable-rapier-debug], [Rapier: debug build])],
  [no], [no])

PHP_ARG_ENABLE([rapier-asan],
  [whether to build Rapier with AddressSanitizer],
  [AS_HELP_STRING([--enable-rapier-asan], [Rapier: AddressSanitizer and UBSan build])],
  [no], [no])

if test "$PHP_RAPIER" != "no"; then
  AC_CHECK_FUNCS([epoll_pwait2])
  AC_CHECK_HEADERS([valgrind/valgrind.h])

  RAPIER_CFLAGS="-Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -std=gnu11"
  if test "$PHP_RAPIER_DEBUG" != "no"; then
    RAPIER_CFLAGS="$RAPIER_CFLAGS -O0 -g"
  fi
  if test "$PHP_RAPIER_ASAN" != "no"; then
    RAPIER_CFLAGS="$RAPIER_CFLAGS -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer"
    LDFLAGS="$LDFLAGS -fsanitize=address,undefined"
  fi

  dnl Engine files (src/) never include php.h unless they must drive Zend;
  dnl binding files (binding/) are the PHP-facing classes.
  RAPIER_ENGINE_SOURCES="src/timer.c src/loop.c src/coroutine.c src/parallel.c src/exit.c src/sleep.c src/sigwait.c src/child_signals.c src/select.c src/plt.c src/libhook.c src/pgsql_hook.c src/memcached_hook.c src/sockets_hook.c src/pipe.c src/proc_hook.c src/shell_hook.c src/stdio_hook.c src/flock_hook.c src/hook.c src/socket.c src/resolve.c src/dns.c src/transport.c src/tls.c src/socket_bio.c src/channel.c src/waitgroup.c src/table.c src/http_parser.c src/multipart.c src/http_date.c src/http_response.c src/http_static.c src/http_compress.c src/http_file_cache.c src/http_gzip.c src/http_brotli.c src/http_zstd.c src/http_server.c src/http_handler.c src/http_answer.c src/http_redirect.c src/http_listen.c src/http_slowlog.c src/http_writer.c src/http_websocket.c src/http_tls.c src/http2.c src/http2_request.c src/http2_response.c src/websocket_frame.c src/websocket_deflate.c src/http_log.c src/http_limit.c src/process.c src/master.c src/reuseport.c src/status.c src/task.c src/fswatch.c src/http_upload.c src/http_body.c src/http_proxy.c src/proxy_protocol.c src/netmask.c"
  RAPIER_LLHTTP_SOURCES="llhttp/api.c llhttp/http.c llhttp/llhttp.c"
  RAPIER_BINDING_SOURCES="binding/exceptions.c binding/functions.c binding/coroutine.c binding/timer.c binding/runtime.c binding/channel.c binding/waitgroup.c binding/process_state.c binding/table.c binding/http_server.c binding/http_server_channels.c binding/http_options.c binding/http_request.c binding/http_body.c binding/http_response.c binding/http_websocket.c binding/http_sapi.c binding/http_task.c binding/http_message.c binding/file_watcher.c"

  PHP_NEW_EXTENSION(rapier, rapier.c $RAPIER_ENGINE_SOURCES $RAPIER_LLHTTP_SOURCES $RAPIER_BINDING_SOURCES, $ext_shared,, $RAPIER_CFLAGS)
  PHP_ADD_BUILD_DIR($ext_builddir/src)
  PHP_ADD_BUILD_DIR($ext_builddir/binding)
  PHP_ADD_BUILD_DIR($ext_builddir/llhttp)
  PHP_ADD_INCLUDE($ext_srcdir/src)

  dnl llhttp's C sources come from Debian's node-llhttp package.
  RAPIER_LLHTTP_DIR=/usr/share/llhttp
  RAPIER_LLHTTP_INCLUDE=/usr/share/include/llhttp
  if test ! -f "$RAPIER_LLHTTP_DIR/llhttp.c" || test ! -f "$RAPIER_LLHTTP_INCLUDE/llhttp.h"; then
    AC_MSG_ERROR([llhttp sources not found: apt-get install node-llhttp])
  fi
  PHP_ADD_INCLUDE($RAPIER_LLHTTP_INCLUDE)
  AC_DEFINE_UNQUOTED([RAPIER_LLHTTP_API_C], ["$RAPIER_LLHTTP_DIR/api.c"], [llhttp source])
  AC_DEFINE_UNQUOTED([RAPIER_LLHTTP_HTTP_C], ["$RAPIER_LLHTTP_DIR/http.c"], [llhttp source])
  AC_DEFINE_UNQUOTED([RAPIER_LLHTTP_LLHTTP_C], ["$RAPIER_LLHTTP_DIR/llhttp.c"], [llhttp source])

  PHP_CHECK_LIBRARY(z, deflateReset, [PHP_ADD_LIBRARY(z, 1, RAPIER_SHARED_LIBADD)],
    [AC_MSG_ERROR([zlib not found: apt-get install zlib1g-dev])])

  dnl The zstd and br content codings: Debian's libzstd-dev and libbrotli-dev.
  PKG_CHECK_MODULES([ZSTD], [libzstd >= 1.4], [],
    [AC_MSG_ERROR([libzstd not found: apt-get install libzstd-dev])])
  PHP_EVAL_INCLINE($ZSTD_CFLAGS)
  PHP_EVAL_LIBLINE($ZSTD_LIBS, RAPIER_SHARED_LIBADD)
  PKG_CHECK_MODULES([BROTLIENC], [libbrotlienc >= 1.0], [],
    [AC_MSG_ERROR([libbrotlienc not found: apt-get install libbrotli-dev])])
  PHP_EVAL_INCLINE($BROTLIENC_CFLAGS)
  PHP_EVAL_LIBLINE($BROTLIENC_LIBS, RAPIER_SHARED_LIBADD)

  dnl HTTP/2 framing, HPACK and flow control: Debian's libnghttp2-dev.
  PKG_CHECK_MODULES([NGHTTP2], [libnghttp2 >= 1.52], [],
    [AC_MSG_ERROR([libnghttp2 not found: apt-get install libnghttp2-dev])])
  PHP_EVAL_INCLINE($NGHTTP2_CFLAGS)
  PHP_EVAL_LIBLINE($NGHTTP2_LIBS, RAPIER_SHARED_LIBADD)

  PKG_CHECK_MODULES([OPENSSL], [openssl >= 1.1.1])
  PHP_EVAL_INCLINE($OPENSSL_CFLAGS)
  PHP_EVAL_LIBLINE($OPENSSL_LIBS, RAPIER_SHARED_LIBADD)
  PHP_SUBST(RAPIER_SHARED_LIBADD)
fi

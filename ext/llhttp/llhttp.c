/*
 * llhttp (the HTTP/1.1 parser of Node.js) llhttp.c, compiled into the extension
 * from the C sources Debian ships in node-llhttp (/usr/share/llhttp). It is
 * included rather than copied so that the package's security updates reach
 * Rapier with a rebuild. Its warnings are its own, not ours.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include RAPIER_LLHTTP_LLHTTP_C
#pragma GCC diagnostic pop

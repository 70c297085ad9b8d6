/*
 * Steering a SO_REUSEPORT group's new connections to the listeners that are
 * being served.
 *
 * The kernel spreads a port's connections over every listener of its
 * SO_REUSEPORT group by a hash of the 4-tuple, whether anyone accepts on
 * that listener or not. The master keeps one listener per worker slot open
 * for the server's life, so a slot whose worker has died, or is still
 * starting, would collect its share of new connections until its next
 * worker is ready (seconds, in a crash loop's back-off). A classic BPF
 * program attached to the group sends each new connection to one of the
 * listeners given as served instead, at random; it is detached when every
 * listener is served again.
 *
 * Engine code: no PHP headers. Returns 0 or a negative errno value.
 */
#ifndef RAPIER_REUSEPORT_H
#define RAPIER_REUSEPORT_H

#include <stdint.h>

/* More listeners than this are never steered (the program would pass the kernel's 4096 instructions). */
#define RAPIER_REUSEPORT_MAX_STEERED 2000

/*
 * fd is any listener of the group; served lists the indexes (in the group's
 * join order: listen() order, while none has closed) of the count listeners
 * that may take new connections, out of total. A count of 0 or of total
 * detaches the program: with none served nothing is gained by steering, and
 * with all served the kernel's hash does the same job. -E2BIG if count is
 * over RAPIER_REUSEPORT_MAX_STEERED.
 */
int rapier_reuseport_steer(int fd, const uint32_t *served, uint32_t count, uint32_t total);

#endif

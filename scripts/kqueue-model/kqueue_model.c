// A small model of kqueue(2) over poll(2), for `scripts/check-kqueue.sh --model` where libkqueue
// is not installed. It follows the man page as far as CMCPPlatform's backend uses it: knotes by
// (ident, filter) with EV_ADD/EV_DELETE/EV_ENABLE/EV_DISABLE, EV_RECEIPT (a receipt per change,
// and no scan when receipts were written), ENOENT for a change to a missing knote, EBADF for a
// closed descriptor, level-triggered EVFILT_READ/EVFILT_WRITE with EV_EOF on hang-up,
// EVFILT_USER with NOTE_TRIGGER and EV_CLEAR. A pass checks the backend's logic against this
// reading of the man page, not Darwin's kernel and not libkqueue. Fixed sizes (1024 queues of
// 512 knotes); a queue is forgotten when its number is reused.
#define _GNU_SOURCE
#include <sys/event.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

typedef struct { int used; uintptr_t ident; short filter; int enabled; int clear; int triggered; void *udata; } knote;
typedef struct { int used; int fd; int wake[2]; knote notes[512]; } kq;
static kq queues[1024];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static kq *find(int fd) { for (int i = 0; i < 1024; i++) if (queues[i].used && queues[i].fd == fd) return &queues[i]; return NULL; }
static knote *note(kq *q, uintptr_t ident, short filter) {
    for (int i = 0; i < 512; i++) if (q->notes[i].used && q->notes[i].ident == ident && q->notes[i].filter == filter) return &q->notes[i];
    return NULL;
}

int kqueue(void) {
    pthread_mutex_lock(&lock);
    int wake[2];
    if (pipe2(wake, O_NONBLOCK | O_CLOEXEC) < 0) { pthread_mutex_unlock(&lock); return -1; }
    int fd = dup(wake[0]);
    // A closed queue's number may come back: that queue is gone.
    for (int i = 0; i < 1024; i++) if (queues[i].used && queues[i].fd == fd) {
        queues[i].used = 0;
        close(queues[i].wake[0]);
        close(queues[i].wake[1]);
    }
    for (int i = 0; i < 1024; i++) if (!queues[i].used) {
        memset(&queues[i], 0, sizeof queues[i]);
        queues[i].used = 1;
        queues[i].fd = fd;
        queues[i].wake[0] = wake[0];
        queues[i].wake[1] = wake[1];
        pthread_mutex_unlock(&lock);
        return fd;
    }
    pthread_mutex_unlock(&lock);
    errno = EMFILE;
    return -1;
}

static int apply(kq *q, const struct kevent *change) {
    // Any change wakes a waiting scan, which rebuilds its set (as a kernel's change takes effect at once).
    char wake = 1;
    (void)!write(q->wake[1], &wake, 1);
    knote *n = note(q, change->ident, change->filter);
    if (change->filter != EVFILT_USER && fcntl((int)change->ident, F_GETFD) < 0) return EBADF;
    if (change->flags & EV_DELETE) {
        if (!n) return ENOENT;
        n->used = 0;
        return 0;
    }
    if (!n) {
        if (!(change->flags & EV_ADD)) return ENOENT;
        for (int i = 0; i < 512 && !n; i++) if (!q->notes[i].used) n = &q->notes[i];
        if (!n) return ENOMEM;
        memset(n, 0, sizeof *n);
        n->used = 1; n->ident = change->ident; n->filter = change->filter; n->enabled = 1;
    }
    if (change->flags & EV_ADD) { n->udata = change->udata; n->enabled = 1; }
    if (change->flags & EV_CLEAR) n->clear = 1;
    if (change->flags & EV_ENABLE) n->enabled = 1;
    if (change->flags & EV_DISABLE) n->enabled = 0;
    if (change->filter == EVFILT_USER && (change->fflags & NOTE_TRIGGER)) {
        n->triggered = 1;
        char byte = 1;
        (void)!write(q->wake[1], &byte, 1);
    }
    return 0;
}

int kevent(int kqfd, const struct kevent *changes, int nchanges, struct kevent *events, int nevents, const struct timespec *timeout) {
    pthread_mutex_lock(&lock);
    kq *q = find(kqfd);
    if (!q) { pthread_mutex_unlock(&lock); errno = EBADF; return -1; }
    int out = 0;
    for (int i = 0; i < nchanges; i++) {
        int error = apply(q, &changes[i]);
        if (error || (changes[i].flags & EV_RECEIPT)) {
            if (out >= nevents) { pthread_mutex_unlock(&lock); errno = error; return -1; }
            events[out] = changes[i];
            events[out].flags = EV_ERROR;
            events[out++].data = error;
        }
    }
    if (out > 0 || nevents == 0) { pthread_mutex_unlock(&lock); return out; }
    int wait_ms = timeout ? (int)(timeout->tv_sec * 1000 + timeout->tv_nsec / 1000000) : -1;
    for (;;) {
        struct pollfd fds[513];
        int map[513];
        int count = 0;
        int user_ready = 0;
        fds[count].fd = q->wake[0]; fds[count].events = POLLIN; map[count++] = -1;
        for (int i = 0; i < 512; i++) {
            knote *n = &q->notes[i];
            if (!n->used || !n->enabled) continue;
            if (n->filter == EVFILT_USER) { user_ready |= n->triggered; continue; }
            fds[count].fd = (int)n->ident;
            fds[count].events = n->filter == EVFILT_READ ? POLLIN | POLLRDHUP : POLLOUT;
            map[count++] = i;
        }
        pthread_mutex_unlock(&lock);
        int ready = poll(fds, count, user_ready ? 0 : wait_ms);
        pthread_mutex_lock(&lock);
        if (ready < 0) { int error = errno; pthread_mutex_unlock(&lock); errno = error; return -1; }
        char drain[64];
        while (read(q->wake[0], drain, sizeof drain) > 0) {}
        for (int i = 0; i < 512 && out < nevents; i++) {
            knote *n = &q->notes[i];
            if (n->used && n->enabled && n->filter == EVFILT_USER && n->triggered) {
                EV_SET(&events[out], n->ident, n->filter, 0, 0, 0, n->udata);
                out++;
                if (n->clear) n->triggered = 0;
            }
        }
        for (int k = 1; k < count && out < nevents; k++) {
            knote *n = &q->notes[map[k]];
            short r = fds[k].revents;
            if (!n->used || !n->enabled || r == 0) continue;
            unsigned short flags = 0;
            if (n->filter == EVFILT_READ) {
                if (r & (POLLHUP | POLLRDHUP | POLLERR)) flags |= EV_EOF;
            } else {
                if (r & (POLLHUP | POLLERR)) flags |= EV_EOF;
            }
            if (r & POLLNVAL) continue;
            EV_SET(&events[out], n->ident, n->filter, flags, 0, 0, n->udata);
            out++;
        }
        if (out > 0 || wait_ms == 0 || ready == 0) break;
        // A wake-up with nothing to report: wait again (a model: the remaining time is not kept).
    }
    pthread_mutex_unlock(&lock);
    return out;
}

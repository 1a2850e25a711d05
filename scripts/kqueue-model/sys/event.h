/* kqueue(2)'s declarations (Darwin's constant values) for the model beside this folder:
   scripts/check-kqueue.sh --model. */
#include <stdint.h>
#include <time.h>
struct kevent { uintptr_t ident; short filter; unsigned short flags; unsigned int fflags; intptr_t data; void *udata; };
/* Evaluates its first argument more than once, as older BSD and libkqueue headers do. */
#define EV_SET(kevp, a, b, c, d, e, f) do { (kevp)->ident = (a); (kevp)->filter = (b); (kevp)->flags = (c); (kevp)->fflags = (d); (kevp)->data = (e); (kevp)->udata = (f); } while (0)
#define EVFILT_READ (-1)
#define EVFILT_WRITE (-2)
#define EVFILT_USER (-10)
#define EV_ADD 0x0001
#define EV_DELETE 0x0002
#define EV_ENABLE 0x0004
#define EV_DISABLE 0x0008
#define EV_RECEIPT 0x0040
#define EV_CLEAR 0x0020
#define EV_EOF 0x8000
#define EV_ERROR 0x4000
#define NOTE_TRIGGER 0x01000000
int kqueue(void);
int kevent(int kq, const struct kevent *changelist, int nchanges, struct kevent *eventlist, int nevents, const struct timespec *timeout);

/* pty-shim.c — test-only LD_PRELOAD shim: lets libserialport 0.1.1 open a
 * pseudo-terminal, so the live serial tests run the real libserialport path
 * over a socat pty pair.
 *
 * libserialport rejects ptys twice: sp_get_port_by_name looks the device up
 * in sysfs (/sys/class/tty/pts/N does not exist) and sp_open reads the
 * modem lines (TIOCMGET), which ptys do not have.  The shim answers only
 * those questions, only for ptys, and only where the kernel said no; all
 * reads, writes and termios calls are the real ones.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define PTS_SYSFS "/sys/class/tty/pts/"

/* Exported for the preload; readlink and ioctl are declared by their
 * headers, __lxstat (glibc's old stat entry point) by none. */
int __lxstat (int ver, const char *path, struct stat *buf);

static int
is_pts_sysfs (const char *path)
{
  return path != NULL && strncmp (path, PTS_SYSFS, strlen (PTS_SYSFS)) == 0;
}

int
__lxstat (int ver, const char *path, struct stat *buf)
{
  static int (*real) (int, const char *, struct stat *);

  if (is_pts_sysfs (path))
    {
      /* sysfs entries of real ttys are symlinks into /sys/devices. */
      memset (buf, 0, sizeof *buf);
      buf->st_mode = S_IFLNK | 0777;
      return 0;
    }
  if (real == NULL)
    real = (int (*) (int, const char *, struct stat *)) dlsym (RTLD_NEXT, "__lxstat");
  return real (ver, path, buf);
}

ssize_t
readlink (const char *path, char *buf, size_t size)
{
  static ssize_t (*real) (const char *, char *, size_t);

  if (is_pts_sysfs (path))
    {
      /* A virtual tty: libserialport then calls the port "native". */
      static const char target[] = "../../devices/virtual/tty/pts";
      size_t n = sizeof target - 1 < size ? sizeof target - 1 : size;

      memcpy (buf, target, n);
      return (ssize_t) n;
    }
  if (real == NULL)
    real = (ssize_t (*) (const char *, char *, size_t)) dlsym (RTLD_NEXT, "readlink");
  return real (path, buf, size);
}

static int
is_pty (int fd)
{
  struct stat st;

  /* UNIX 98 pty slaves: majors 136–143. */
  return fstat (fd, &st) == 0 && S_ISCHR (st.st_mode) && major (st.st_rdev) >= 136 &&
         major (st.st_rdev) <= 143;
}

int
ioctl (int fd, unsigned long request, ...)
{
  static int (*real) (int, unsigned long, ...);
  va_list args;
  void *arg;
  int r;

  va_start (args, request);
  arg = va_arg (args, void *);
  va_end (args);
  if (real == NULL)
    real = (int (*) (int, unsigned long, ...)) dlsym (RTLD_NEXT, "ioctl");
  r = real (fd, request, arg);
  if (r < 0 && (errno == ENOTTY || errno == EINVAL) && is_pty (fd))
    switch (request)
      {
      case TIOCMGET:
        /* A cable with everything asserted. */
        *(int *) arg = TIOCM_DTR | TIOCM_RTS | TIOCM_CTS | TIOCM_DSR | TIOCM_CD;
        return 0;
      case TIOCMSET:
      case TIOCMBIS:
      case TIOCMBIC:
        return 0;
      default:
        break;
      }
  return r;
}

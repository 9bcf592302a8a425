// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the harden_*_test.c selftests; see harden.h.
 */
#include "util.h"
#include "harden.h"

/* the whole file into a NUL-terminated malloc()ed buffer; length or -errno */
ssize_t harden_read_all(const char *path, char **out)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	ssize_t n;
	int fd;

	*out = NULL;
	if (!buf)
		return -ENOMEM;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		n = -errno;
		free(buf);
		return n;
	}
	for (;;) {
		if (cap - len < 2048) {
			char *nb = realloc(buf, cap * 2);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = 0;
	*out = buf;
	return len;
}

int harden_peer_start(struct harden_peer *pe, int (*fn)(void *, int, int), void *arg)
{
	int up[2], down[2];

	pe->pid = -1;
	if (pipe(up))
		return -1;
	if (pipe(down)) {
		close(up[0]);
		close(up[1]);
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	pe->pid = fork();
	if (pe->pid == 0) {
		int fails;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(up[0]);
		close(down[1]);
		fails = fn(arg, down[0], up[1]);
		fflush(stdout);
		fflush(stderr);
		_exit(fails > 100 ? 100 : fails);
	}
	close(up[1]);
	close(down[0]);
	pe->rd = up[0];
	pe->wr = down[1];
	return pe->pid < 0 ? -1 : 0;
}

bool harden_put_byte(int fd)
{
	return write(fd, "x", 1) == 1;
}

bool harden_get_byte(int fd)
{
	char c;

	return read(fd, &c, 1) == 1;
}

/* close the pipes and wait; the wait status, -1 on error */
int harden_peer_wait(struct harden_peer *pe)
{
	int st;

	close(pe->rd);
	close(pe->wr);
	if (pe->pid <= 0 || waitpid(pe->pid, &st, 0) != pe->pid)
		return -1;
	return st;
}

/*
 * e2e.h -- helpers for the integration tests (e2e.c): start the real
 * capsuled on loopback ephemeral ports with a throwaway configuration,
 * one Gemini and one Gopher request helper (each with a raw-bytes
 * variant), the server's log and /proc figures, stop it.
 */
#ifndef CAPSULED_TEST_E2E_H
#define CAPSULED_TEST_E2E_H

/*
 * What an integration test speaks with (sockets, processes, files,
 * OpenSSL), included here once for all of them.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "core/buf.h"
#include "core/util.h"
#include "files.h"
#include "harness.h"

struct e2e_server {
	pid_t	 pid;
	int	 gemini_port;
	int	 gopher_port;
	char	 dir[256];		/* temp dir: config, certs, log */
	char	 log[300];
};

struct reply {
	char		 header[2048];	/* without CRLF */
	int		 status;	/* -1: no header */
	struct buf	 body;		/* owned: reply_free() */
	int		 close_notify;	/* 1: clean TLS close */
	int		 connected;
};

/* The harness's clock, under the names the e2e tests know. */
#define e2e_now_ms()		harness_now_ms()
#define e2e_sleep_ms(ms)	harness_sleep_ms(ms)

/* e2e_start_flags(): do not pass --allow-root (the refusal is tested). */
#define E2E_NO_ALLOW_ROOT	0x1

int	e2e_free_port(void);
int	e2e_connect(int, unsigned);
int	e2e_connect_from(const char *, const char *, int, unsigned, int);
void	e2e_write_config(const struct e2e_server *, int, const char *,
	    const char *, const char *);
int	e2e_start_flags(struct e2e_server *, const char *, const char *, int);
int	e2e_start(struct e2e_server *, const char *, const char *);
int	e2e_start_port(struct e2e_server *, int, const char *, const char *);
void	e2e_exec_server(const char *, const char *, int)
	    __attribute__((noreturn));
int	e2e_log_count(const struct e2e_server *, const char *);
int	e2e_log_wait(const char *, const char *, unsigned);
void	e2e_wait_serving(const struct e2e_server *);
int	e2e_stop(struct e2e_server *);

SSL_CTX	*e2e_client_ctx(int);
SSL_CTX	*e2e_cert_ctx(const char *, char [65]);
void	 reply_free(struct reply *);
void	 e2e_split_header(struct reply *);
int	 e2e_gemini_raw(int, const char *, size_t, struct reply *, SSL_CTX *,
	    const char *);
struct reply e2e_gemini_get(int, SSL_CTX *, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
long	 e2e_gemini_wait(int, SSL_CTX *, const char *, int, const char *, int,
	    unsigned);
int	 e2e_plain(int, const char *, size_t, struct buf *);
int	 e2e_gopher_get(int, struct buf *, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
int	 e2e_ask(const struct e2e_server *, SSL_CTX *, int, const char *,
	    struct buf *);
void	 e2e_crawl_gemini(int, SSL_CTX *, const char *, const char *);
void	 e2e_crawl_gopher(int, const char *, const char *);
int	 e2e_peer_closed(int);

long	 e2e_proc_status_kb(pid_t, const char *);
int	 e2e_fd_count(pid_t);
int	 e2e_fds_wait(pid_t, int, unsigned);

unsigned e2e_rnd(unsigned *, unsigned);
void	 e2e_write_pieces(int, const char *, int, unsigned *);
void	 e2e_stable_posts(const char *, int);
int	 e2e_stable_whole(const char *, int);
int	 e2e_lists_stable(const char *, int);
void	 e2e_wrong(atomic_int *, const char *, const char *, const char *);

#endif

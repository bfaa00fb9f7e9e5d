/* A peer of ControllerBridge written with crane_peer.h: the PD law
 * tau = -kP q - kD dq/dt on the three joints of the crane of Cibicik &
 * Egeland (2018), set-points zero.  Usage: pd_peer PORT [KEY_FILE]; with
 * a key file (the rig's key, the white space at its ends not part of it)
 * every datagram must carry its tag.  Either byte order.  Built and run by
 * the test suite; a starting point for a device's own program. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#include "crane_peer.h"

/* SHA-256 of ControllerBridge's signals (`crane-cosim build-bridge Controller` prints it) */
static const unsigned char SIGNALS[CP_DIGEST] = {
    0xc2, 0x57, 0x42, 0xc1, 0x75, 0x64, 0xa3, 0x8e, 0x88, 0x04, 0xf9, 0xed, 0x90, 0xb0, 0x9d, 0x82,
    0x39, 0xce, 0x31, 0xa2, 0x36, 0x6a, 0x3a, 0x01, 0x70, 0xc6, 0x0c, 0xa1, 0xa8, 0x09, 0xfd, 0x34};

static void pd(void *ctx, int reset, double t, const double *u, double *y) {
    (void)ctx; (void)reset; (void)t;  /* a law with state restarts it on reset and steps it to t */
    for (int j = 0; j < 3; j++) { y[j] = -3e4 * u[j] - 8e3 * u[3 + j]; y[3 + j] = 0.0; }
}

static double seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv) {
    static unsigned char key[256], in[2048], out[2048];
    size_t key_len = 0;
    if (argc > 2) {
        FILE *f = fopen(argv[2], "rb");
        if (!f) { perror(argv[2]); return 2; }
        key_len = fread(key, 1, sizeof key, f);
        fclose(f);
        while (key_len && (key[key_len - 1] == '\n' || key[key_len - 1] == '\r' || key[key_len - 1] == ' ')) key_len--;
    }
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in me = {.sin_family = AF_INET, .sin_port = htons(argc > 1 ? atoi(argv[1]) : 5000)};
    if (bind(s, (struct sockaddr *)&me, sizeof me) != 0) { perror("bind"); return 2; }
    cp_peer peer;
    cp_init(&peer, 6, 6, SIGNALS, key_len ? key : NULL, key_len);
    for (;;) {
        struct sockaddr_in from;
        socklen_t len = sizeof from;
        ssize_t n = recvfrom(s, in, sizeof in, 0, (struct sockaddr *)&from, &len);
        if (n < 0) continue;
        uint64_t who = (uint64_t)from.sin_addr.s_addr << 16 | from.sin_port;
        size_t m = cp_handle(&peer, in, (size_t)n, who, seconds(), pd, NULL, out, sizeof out);
        if (m) sendto(s, out, m, 0, (struct sockaddr *)&from, len);
    }
}

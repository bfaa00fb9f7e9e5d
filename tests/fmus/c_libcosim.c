/* OSP libcosim's C library (libcosimc, as shipped in the libcosimpy wheel)
 * driving one FMU from a plain C program, for tests/fmus/test_c_host.py.
 *
 *   c_libcosim FMU STEPS STEP_SIZE_NS SETS GETS
 *
 * SETS is "vr=value,..." (Real initial values; "" for none), GETS "vr,vr,...".
 * Prints "outputs" and the last values of GETS after STEPS steps, one per
 * line; a failure prints libcosim's message to stderr and exits with 2.
 * libcosimc declares its API in cosim.h, which the wheel does not ship: the
 * few functions used here are declared by hand, as libcosimpy does. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cosim_execution_s cosim_execution;
typedef struct cosim_slave_s cosim_slave;
typedef struct cosim_observer_s cosim_observer;

cosim_execution *cosim_execution_create(int64_t start_time, int64_t step_size);
cosim_slave *cosim_local_slave_create(const char *fmu_path, const char *instance_name);
int cosim_execution_add_slave(cosim_execution *execution, cosim_slave *slave);
int cosim_execution_set_real_initial_value(cosim_execution *execution, int slave, uint32_t vr, double value);
cosim_observer *cosim_last_value_observer_create(void);
int cosim_execution_add_observer(cosim_execution *execution, cosim_observer *observer);
int cosim_execution_step(cosim_execution *execution, int64_t steps);
int cosim_observer_slave_get_real(cosim_observer *observer, int slave, const uint32_t vr[], size_t n,
                                  double values[]);
int cosim_execution_destroy(cosim_execution *execution);
int cosim_observer_destroy(cosim_observer *observer);
int cosim_local_slave_destroy(cosim_slave *slave);
const char *cosim_last_error_message(void);
void cosim_log_set_output_level(int level);

static void fail(const char *what)
{
    fprintf(stderr, "c_libcosim: %s: %s\n", what, cosim_last_error_message());
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: c_libcosim FMU STEPS STEP_SIZE_NS SETS GETS\n");
        return 2;
    }
    cosim_log_set_output_level(4); /* errors only */
    cosim_execution *execution = cosim_execution_create(0, strtoll(argv[3], NULL, 10));
    if (!execution)
        fail("cosim_execution_create");
    cosim_slave *slave = cosim_local_slave_create(argv[1], "fmu");
    if (!slave)
        fail("cosim_local_slave_create");
    int index = cosim_execution_add_slave(execution, slave);
    if (index < 0)
        fail("cosim_execution_add_slave");
    cosim_observer *observer = cosim_last_value_observer_create();
    if (!observer || cosim_execution_add_observer(execution, observer) != 0)
        fail("cosim_execution_add_observer");
    for (char *item = strtok(argv[4], ","); item; item = strtok(NULL, ",")) {
        char *eq = strchr(item, '=');
        if (!eq || cosim_execution_set_real_initial_value(execution, index, (uint32_t)strtoul(item, NULL, 10),
                                                          strtod(eq + 1, NULL)) != 0)
            fail("cosim_execution_set_real_initial_value");
    }
    if (cosim_execution_step(execution, strtoll(argv[2], NULL, 10)) != 0)
        fail("cosim_execution_step");
    uint32_t vrs[256];
    double values[256];
    size_t n = 0;
    for (char *item = strtok(argv[5], ","); item && n < 256; item = strtok(NULL, ","))
        vrs[n++] = (uint32_t)strtoul(item, NULL, 10);
    if (cosim_observer_slave_get_real(observer, index, vrs, n, values) != 0)
        fail("cosim_observer_slave_get_real");
    cosim_execution_destroy(execution);
    cosim_observer_destroy(observer);
    cosim_local_slave_destroy(slave);
    printf("outputs\n");
    for (size_t i = 0; i < n; ++i)
        printf("%.17g\n", values[i]);
    return 0;
}

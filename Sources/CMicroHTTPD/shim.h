#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/*
 * MHD_start_daemon and MHD_get_daemon_info are variadic, which Swift cannot call.
 * These wrappers pass exactly what libmicrohttpd reads with va_arg: the options as
 * one MHD_OPTION_ARRAY (ended by MHD_OPTION_END), and no extra argument for the
 * daemon information that takes none.
 */

static inline struct MHD_Daemon *cct_mhd_start(unsigned int flags, uint16_t port,
                                               MHD_AcceptPolicyCallback policy, void *policy_context,
                                               MHD_AccessHandlerCallback handler, void *handler_context,
                                               struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, port, policy, policy_context, handler, handler_context,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/* The port the daemon listens on (the one the kernel chose when asked for port 0), or 0. */
static inline uint16_t cct_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/* The client's address of a connection (MHD_get_connection_info is variadic), or NULL. */
static inline const struct sockaddr *cct_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/* The connection's socket, or -1. */
static inline int cct_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/* No idle timeout for this connection (a long-lived stream that watches its peer itself). */
static inline enum MHD_Result cct_mhd_no_timeout(struct MHD_Connection *connection) {
    return MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, (unsigned int) 0);
}

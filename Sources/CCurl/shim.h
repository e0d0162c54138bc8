#include <curl/curl.h>

/*
 * curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call.
 * These typed wrappers each pass exactly one argument of the type the option
 * expects (libcurl reads it with va_arg of that type), so a call from Swift is
 * well defined. Pick the wrapper by the option's documented type:
 * long, char * / void *, curl_off_t, struct curl_slist *, or a callback.
 */

/* A CURLOPT_WRITEFUNCTION / CURLOPT_HEADERFUNCTION callback. */
typedef size_t (*cct_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode cct_global_init(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}

static inline CURLcode cct_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/* For string options libcurl copies the string (since 7.17.0), except
 * CURLOPT_POSTFIELDS; use CURLOPT_COPYPOSTFIELDS for request bodies. */
static inline CURLcode cct_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode cct_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode cct_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode cct_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode cct_setopt_write_function(CURL *handle, cct_data_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode cct_setopt_header_function(CURL *handle, cct_data_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}

static inline CURLcode cct_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode cct_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode cct_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

/* For CURLINFO_*_STRING options: the string belongs to the handle. */
static inline CURLcode cct_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}


/* For CURLINFO_ACTIVESOCKET: the socket of a CURLOPT_CONNECT_ONLY connection, to
 * poll(2) on before curl_easy_send / curl_easy_recv. */
static inline CURLcode cct_getinfo_socket(CURL *handle, CURLINFO info, curl_socket_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

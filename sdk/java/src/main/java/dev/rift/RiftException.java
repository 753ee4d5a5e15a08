package dev.rift;

/**
 * A failure of the carrier: librift's non-zero status (code, name and message from its
 * {@code out_error}), a spawn that did not start, or an HTTP connection that failed.
 * An HTTP answer of any status is not an exception: it is an {@link HttpResult}.
 */
public class RiftException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int code;
    private final String name;

    public RiftException(int code, String name, String message) {
        super(name + " (" + code + "): " + message);
        this.code = code;
        this.name = name;
    }

    public RiftException(String message, Throwable cause) {
        super(message, cause);
        this.code = 0;
        this.name = "RIFT_SDK";
    }

    /** librift's status (RIFT_ERR_*, negative), or 0 for an SDK-side failure. */
    public int code() {
        return code;
    }

    /** "RIFT_ERR_ARGUMENT", ..., or "RIFT_SDK" for an SDK-side failure. */
    public String name() {
        return name;
    }
}

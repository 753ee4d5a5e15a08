package dev.rift;

/** verify found the request a different number of times than expected. */
public class VerificationError extends AssertionError {
    private static final long serialVersionUID = 1L;
    private final int count;

    public VerificationError(String message, int count) {
        super(message);
        this.count = count;
    }

    public int count() {
        return count;
    }
}

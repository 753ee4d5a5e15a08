package dev.rift;

import java.util.function.IntPredicate;

/** How many recorded requests verify expects. */
public final class Times {
    private final IntPredicate check;
    private final String text;

    private Times(IntPredicate check, String text) {
        this.check = check;
        this.text = text;
    }

    public static Times times(int n) { return new Times(c -> c == n, "exactly " + n); }
    public static Times never() { return times(0); }
    public static Times once() { return times(1); }
    public static Times atLeast(int n) { return new Times(c -> c >= n, "at least " + n); }
    public static Times atMost(int n) { return new Times(c -> c <= n, "at most " + n); }

    public boolean test(int count) { return check.test(count); }

    @Override
    public String toString() { return text; }
}

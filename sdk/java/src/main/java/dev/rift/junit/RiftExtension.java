package dev.rift.junit;

import dev.rift.Rift;
import dev.rift.RiftClient;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/** The extension behind {@link RiftTest}. */
public final class RiftExtension
    implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(RiftExtension.class);
    private static final String CLIENT = "client", BEFORE = "portsBefore";

    /** The transport an annotation and the rift.transport property choose. */
    static String transportOf(RiftTest ann) {
        if (ann != null && !ann.transport().isEmpty()) return ann.transport();
        return System.getProperty("rift.transport", "embedded");
    }

    private static RiftClient open(ExtensionContext ctx) {
        RiftTest ann = AnnotationSupport.findAnnotation(ctx.getRequiredTestClass(), RiftTest.class).orElse(null);
        String transport = transportOf(ann);
        if (transport.equals("embedded")) return Rift.embedded(ann == null ? Rift.DEFAULT_OPTIONS : ann.options());
        return Rift.open(transport);
    }

    /** The test class's client: opened in beforeAll, found from any inner context. */
    private static RiftClient client(ExtensionContext ctx) {
        return ctx.getStore(NS).getOrComputeIfAbsent(CLIENT, k -> open(ctx), RiftClient.class);
    }

    @Override
    public void beforeAll(ExtensionContext ctx) {
        // A nested class annotated itself gets its own engine; otherwise it shares the outer one.
        Class<?> c = ctx.getRequiredTestClass();
        boolean own = c.isAnnotationPresent(RiftTest.class) && c.getEnclosingClass() != null
                      && ctx.getStore(NS).get(CLIENT) != null;
        if (own) ctx.getStore(NS).put(CLIENT, open(ctx));
        else client(ctx);
    }

    @Override
    public void afterAll(ExtensionContext ctx) {
        RiftClient c = ctx.getStore(NS).remove(CLIENT, RiftClient.class);
        if (c != null) c.close();
    }

    @Override
    public void beforeEach(ExtensionContext ctx) {
        ctx.getStore(NS).put(BEFORE, new HashSet<>(client(ctx).ports()));
    }

    @Override
    @SuppressWarnings("unchecked")
    public void afterEach(ExtensionContext ctx) {
        Set<Integer> before = ctx.getStore(NS).remove(BEFORE, Set.class);
        RiftClient c = client(ctx);
        List<Integer> now = c.ports();
        for (int port : now) if (before == null || !before.contains(port)) c.delete(port);
    }

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext ctx) {
        return p.getParameter().getType() == RiftClient.class;
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext ctx) throws ParameterResolutionException {
        return client(ctx);
    }
}

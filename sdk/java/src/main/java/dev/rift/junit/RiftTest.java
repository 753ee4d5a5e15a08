package dev.rift.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One Rift per test class, injected as a {@link dev.rift.RiftClient} parameter (constructor,
 * lifecycle or test method). Imposters a test creates are deleted after it.
 * <pre>
 * &#64;RiftTest
 * class UsersTest {
 *     &#64;Test void get(RiftClient rift) { ... }
 * }
 * </pre>
 */
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(RiftExtension.class)
public @interface RiftTest {
    /**
     * "embedded", "spawn" or "connect:URL"; empty means the rift.transport system property,
     * else "embedded".
     */
    String transport() default "";

    /** librift options for the embedded transport. */
    String options() default dev.rift.Rift.DEFAULT_OPTIONS;
}

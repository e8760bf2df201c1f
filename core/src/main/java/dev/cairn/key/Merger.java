package dev.cairn.key;

import dev.cairn.CairnException;
import dev.cairn.MergeOperator;
import dev.cairn.Options;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The database's merge operator as the engine calls it: operands are handed over oldest first
 * whatever order the caller met them in, a failing or misbehaving operator becomes a {@link
 * CairnException} naming the operator and the key, and operands met without an operator are
 * refused in the same way (they were written by a database opened with one).
 */
public final class Merger {
  /** No merge operator: any operand met is an error. */
  public static final Merger NONE = new Merger(null);

  private final MergeOperator operator;

  private Merger(MergeOperator operator) {
    this.operator = operator;
  }

  public static Merger of(MergeOperator operator) {
    return operator == null ? NONE : new Merger(operator);
  }

  /** The value after {@code operandsNewestFirst} are applied to {@code existing} (null: none). */
  public byte[] fullMerge(byte[] userKey, byte[] existing, List<byte[]> operandsNewestFirst) {
    MergeOperator op = require(userKey);
    List<byte[]> oldestFirst = new ArrayList<>(operandsNewestFirst);
    Collections.reverse(oldestFirst);
    byte[] merged;
    try {
      merged = op.fullMerge(userKey, existing, Collections.unmodifiableList(oldestFirst));
    } catch (RuntimeException e) {
      throw failed(userKey, e.toString(), e);
    }
    return checked(userKey, merged);
  }

  /** One operand for {@code older} then {@code newer}, or null when the operator cannot combine them. */
  public byte[] partialMerge(byte[] userKey, byte[] older, byte[] newer) {
    MergeOperator op = require(userKey);
    byte[] merged;
    try {
      merged = op.partialMerge(userKey, older, newer);
    } catch (RuntimeException e) {
      throw failed(userKey, e.toString(), e);
    }
    return merged == null ? null : checked(userKey, merged);
  }

  private MergeOperator require(byte[] userKey) {
    if (operator == null) {
      throw new CairnException("key " + UserKeys.printable(userKey) + " holds merge operands, but the database was"
          + " opened without a merge operator (Options.Builder.mergeOperator)");
    }
    return operator;
  }

  private byte[] checked(byte[] userKey, byte[] merged) {
    if (merged == null) {
      throw failed(userKey, "it returned null", null);
    }
    if (merged.length > Options.MAX_VALUE_BYTES) {
      throw failed(userKey, "it returned " + merged.length + " bytes, over the value limit of "
          + Options.MAX_VALUE_BYTES, null);
    }
    return merged;
  }

  private CairnException failed(byte[] userKey, String why, RuntimeException cause) {
    return new CairnException("merge operator " + operator.name() + " failed on key " + UserKeys.printable(userKey)
        + ": " + why, cause);
  }
}

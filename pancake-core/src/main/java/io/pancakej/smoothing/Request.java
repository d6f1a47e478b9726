package io.pancakej.smoothing;

import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

/**
 * One queued client request. A request for a key that has no slot (never written) is queued too,
 * with slot -1: it takes a real access like any other (a simulated one) and is answered "absent",
 * so absent keys cost the same time as present ones.
 */
final class Request {
  enum Op { GET, PUT, UPDATE, DELETE }

  /** The result of a get for an absent key. */
  static final Object ABSENT = new Object();

  final Op op;
  final int keySlot;
  final byte[] value;
  final UnaryOperator<byte[]> merge;
  final CompletableFuture<Object> done = new CompletableFuture<>();

  Request(Op op, int keySlot, byte[] value, UnaryOperator<byte[]> merge) {
    this.op = op;
    this.keySlot = keySlot;
    this.value = value;
    this.merge = merge;
  }

  /** The answer for a key with no slot. */
  Object absentResult() {
    return op == Op.GET ? ABSENT : Boolean.FALSE;
  }
}

package io.pancakej.smoothing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import java.util.random.RandomGenerator;

import io.pancakej.ConfigException;
import io.pancakej.IntegrityException;
import io.pancakej.PancakeConfig;
import io.pancakej.PancakeException;
import io.pancakej.StateException;
import io.pancakej.ValueTooLargeException;
import io.pancakej.crypto.Aead;
import io.pancakej.crypto.CtrDrbg;
import io.pancakej.crypto.MasterKey;
import io.pancakej.crypto.Prf;
import io.pancakej.distribution.DistributionFile;
import io.pancakej.state.ProxyState;
import io.pancakej.state.StateDirectory;
import io.pancakej.store.CombiningStore;
import io.pancakej.store.KvStore;

/**
 * The PANCAKE engine behind {@link io.pancakej.PancakeClient}; not an API of its own.
 *
 * <p>Request path (paper Fig. 2, Batch): a request for key k picks a uniform replica j of k and
 * joins the shared FIFO query queue; then its thread builds one batch of B accesses, each real
 * with probability delta = 1/2 (the queue head, or a simulated real access drawn from the estimate
 * when the queue is empty) or fake (drawn from pi_f). The batch locks its replicas (striped locks,
 * in a global order, so no deadlock and no global lock), reads the B labels in one round trip,
 * serves the requests it dequeued, and writes all B labels back, freshly encrypted, in one round
 * trip, propagating UpdateCache entries on the way. A request not served by its own batch is
 * served by a later one: another request's, or the {@link Pacer}'s, which sends batches at a rate
 * that does not depend on the queue.
 */
public final class Proxy implements AutoCloseable {
  private static final int LOCK_STRIPES = 4096;
  private static final Object ABSENT = new Object();

  private enum Op { GET, PUT, UPDATE, DELETE }

  /** One queued client request. */
  private static final class Request {
    final Op op;
    final int keySlot;
    final int replica;
    final byte[] value;
    final UnaryOperator<byte[]> merge;
    final CompletableFuture<Object> done = new CompletableFuture<>();
    Object result;

    Request(Op op, int keySlot, int replica, byte[] value, UnaryOperator<byte[]> merge) {
      this.op = op;
      this.keySlot = keySlot;
      this.replica = replica;
      this.value = value;
      this.merge = merge;
    }
  }

  private final KvStore store;
  private final StateDirectory stateDir;
  private final MasterKey masterKey;
  private final Prf prf;
  private final Aead aead;
  private final ReplicaCodec codec;
  private final ReplicaPlan plan;
  private final KeyTable keys;
  private final UpdateCache cache = new UpdateCache();
  private final ConcurrentLinkedQueue<Request> queue = new ConcurrentLinkedQueue<>();
  private final ReentrantLock[] stripes = new ReentrantLock[LOCK_STRIPES];
  private final ThreadLocal<RandomGenerator> random;
  private final int batchSize;
  private final String storeDescription;
  private final byte[] stateId;
  private final AtomicLong versions = new AtomicLong();
  private final LongAdder requestCount = new LongAdder();
  private final LongAdder batchCount = new LongAdder();
  private final LongAdder pacerBatchCount = new LongAdder();
  private final AtomicBoolean open = new AtomicBoolean(true);
  private final Pacer pacer;

  private Proxy(PancakeConfig config, KvStore store, StateDirectory stateDir, MasterKey masterKey,
      ReplicaCodec codec, ReplicaPlan plan, KeyTable keys, byte[] stateId) {
    this.store = store;
    this.stateDir = stateDir;
    this.masterKey = masterKey;
    this.prf = new Prf(masterKey.derive("pancake-j label prf v1"), 16);
    this.aead = new Aead(masterKey.derive("pancake-j value aead v1"));
    this.codec = codec;
    this.plan = plan;
    this.keys = keys;
    this.stateId = stateId;
    this.batchSize = config.batchSize();
    this.storeDescription = store.describe();
    for (int i = 0; i < LOCK_STRIPES; i++) {
      stripes[i] = new ReentrantLock();
    }
    this.random = randomSource(config.seed());
    this.pacer = new Pacer(this::pacerBatch, requestCount::sum, config.pacerRate(), config.pacerFraction());
  }

  private static ThreadLocal<RandomGenerator> randomSource(Long seed) {
    if (seed == null) {
      return ThreadLocal.withInitial(CtrDrbg::new);
    }
    SplittableRandom root = new SplittableRandom(seed);
    return ThreadLocal.withInitial(() -> {
      synchronized (root) {
        return root.split();
      }
    });
  }

  // ---------------------------------------------------------------- open / create / close

  /** Opens the state in the configured directory (creating it if allowed) and the store. */
  public static Proxy open(PancakeConfig config) {
    boolean exists = StateDirectory.exists(config.stateDir());
    if (!exists && !config.createIfMissing()) {
      throw new StateException("no PANCAKE state in " + config.stateDir().toAbsolutePath()
          + "; load the data first (bin/ycsb load pancake ...) with the same pancake.state.dir");
    }
    if (!exists && config.capacity() < 1) {
      throw new ConfigException("a new PANCAKE state needs a capacity: set pancake.capacity"
          + " (or YCSB's recordcount)");
    }
    StateDirectory dir = StateDirectory.lock(config.stateDir());
    KvStore store = null;
    try {
      MasterKey key;
      if (exists) {
        if (!java.nio.file.Files.isRegularFile(config.keyFile())) {
          throw new StateException("the master key file " + config.keyFile() + " of state "
              + dir.path() + " is missing");
        }
        key = MasterKey.load(config.keyFile());
      } else {
        key = MasterKey.loadOrCreate(config.keyFile());
      }
      store = config.openStore();
      if (config.combineStoreCalls()) {
        store = new CombiningStore(store);
      }
      Proxy proxy = exists ? reopen(config, dir, key, store) : create(config, dir, key, store);
      proxy.pacer.start();
      return proxy;
    } catch (RuntimeException e) {
      if (store != null) {
        try {
          store.close();
        } catch (RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      dir.close();
      throw e;
    }
  }

  private static Proxy create(PancakeConfig config, StateDirectory dir, MasterKey key, KvStore store) {
    int n = config.capacity();
    if (n > (1 << 29)) {
      throw new ConfigException("pancake.capacity " + n + " is too large (at most 2^29 key slots)");
    }
    RandomGenerator rnd = randomSource(config.seed()).get();
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    double[] estimateInOrder;
    byte[][] keyOfSlot = new byte[n][];
    int bound = 0;
    if (config.distributionFile() != null) {
      Map<String, Double> weights = DistributionFile.read(config.distributionFile());
      estimateInOrder = DistributionFile.estimate(DistributionFile.weightsInOrder(weights), n);
      for (String k : weights.keySet()) {
        byte[] kb = k.getBytes(StandardCharsets.UTF_8);
        if (kb.length > config.keySize()) {
          throw new ValueTooLargeException("a key in " + config.distributionFile() + " is " + kb.length
              + " bytes, more than pancake.key.size = " + config.keySize());
        }
        keyOfSlot[order[bound++]] = kb;
      }
    } else {
      estimateInOrder = new double[n];
      Arrays.fill(estimateInOrder, 1.0 / n);
    }
    double[] estimate = new double[n];
    for (int i = 0; i < n; i++) {
      estimate[order[i]] = estimateInOrder[i];
    }
    ReplicaPlan plan = ReplicaPlan.build(estimate, rnd);
    byte[] stateId = new byte[16];
    new SecureRandom().nextBytes(stateId);
    ReplicaCodec codec = new ReplicaCodec(config.keySize(), config.valueSize());
    KeyTable keys = new KeyTable(keyOfSlot, order, bound);
    Proxy proxy = new Proxy(config, store, dir, key, codec, plan, keys, stateId);
    proxy.writeInitialReplicas();
    proxy.saveState();
    return proxy;
  }

  private static Proxy reopen(PancakeConfig config, StateDirectory dir, MasterKey key, KvStore store) {
    ProxyState s = dir.load(key);
    if (!s.storeDescription().equals(store.describe())) {
      throw new StateException("state " + dir.path() + " belongs to store " + s.storeDescription()
          + ", not to the configured store " + store.describe());
    }
    if (s.valueSize() != config.valueSize() || s.keySize() != config.keySize()) {
      throw new ConfigException("state " + dir.path() + " was created with pancake.value.size="
          + s.valueSize() + " and pancake.key.size=" + s.keySize() + "; the configuration asks for "
          + config.valueSize() + " and " + config.keySize());
    }
    ReplicaPlan plan;
    try {
      plan = ReplicaPlan.restore(s.estimate(), s.ownerOf(), s.indexOf());
    } catch (RuntimeException e) {
      throw new StateException("state " + dir.path() + " holds an inconsistent replica plan", e);
    }
    ReplicaCodec codec = new ReplicaCodec(s.keySize(), s.valueSize());
    KeyTable keys = new KeyTable(s.keyOfSlot(), s.freeOrder(), s.nextFree());
    Proxy proxy = new Proxy(config, store, dir, key, codec, plan, keys, s.stateId());
    proxy.cache.restore(s.pending(), plan, proxy.versions.incrementAndGet());
    proxy.checkCanary();
    return proxy;
  }

  /** Paper Init: every replica slot gets a sealed value; dummies and unbound slots hold none. */
  private void writeInitialReplicas() {
    int m = plan.replicaSlots;
    int chunk = 512;
    long started = System.nanoTime();
    int reported = 0;
    List<byte[]> labels = new ArrayList<>(chunk);
    List<byte[]> values = new ArrayList<>(chunk);
    for (int r = 0; r < m; r++) {
      int owner = plan.ownerOf[r];
      byte[] plaintext = owner == ReplicaPlan.DUMMY
          ? codec.encode(ReplicaCodec.DUMMY, r, ReplicaPlan.DUMMY, null, null)
          : codec.encode(ReplicaCodec.ABSENT, r, owner, keys.keyOf(owner), null);
      byte[] label = label(r);
      labels.add(label);
      values.add(aead.encrypt(plaintext, label));
      if (labels.size() == chunk || r == m - 1) {
        store.multiPut(labels, values);
        labels.clear();
        values.clear();
        int percent = (int) ((r + 1L) * 100 / m);
        if (m >= 100_000 && percent / 10 > reported / 10) {
          reported = percent;
          System.err.printf("pancake: initializing %d replicas: %d%% (%.1f s)%n", m, percent,
              (System.nanoTime() - started) / 1e9);
        }
      }
    }
    byte[] canary = canaryLabel();
    store.put(canary, aead.encrypt(stateId, canary));
  }

  private void checkCanary() {
    byte[] canary = canaryLabel();
    byte[] sealed = store.get(canary);
    if (sealed == null) {
      throw new StateException("store " + storeDescription + " does not hold the data of state "
          + stateDir.path() + " (it is empty or was wiped); load the data again into a fresh state");
    }
    byte[] id;
    try {
      id = aead.decrypt(sealed, canary);
    } catch (IntegrityException e) {
      throw new IntegrityException("store " + storeDescription + " holds data sealed under another master key"
          + " than state " + stateDir.path(), e);
    }
    if (!Arrays.equals(id, stateId)) {
      throw new StateException("store " + storeDescription + " was initialized by another PANCAKE state"
          + " than " + stateDir.path());
    }
  }

  byte[] label(int replicaSlot) {
    return prf.compute(ByteBuffer.allocate(9).put((byte) 1).putLong(replicaSlot).array());
  }

  private byte[] canaryLabel() {
    return prf.compute("\u0002pancake-j canary".getBytes(StandardCharsets.US_ASCII));
  }

  private ProxyState snapshot() {
    return new ProxyState(storeDescription, stateId, plan.keySlots, codec.valueSize, codec.keySize,
        plan.estimate, plan.ownerOf, plan.indexOf, keys.snapshotKeys(), keys.freeOrder(), keys.nextFree(),
        cache.snapshot());
  }

  /** Persists the proxy state now (also done at close). */
  public void saveState() {
    stateDir.save(snapshot(), masterKey);
  }

  @Override
  public void close() {
    if (!open.compareAndSet(true, false)) {
      return;
    }
    PancakeException failure = null;
    try {
      pacer.close();
      Request r;
      while ((r = queue.poll()) != null) {
        r.done.completeExceptionally(new PancakeException("the PANCAKE client was closed before this request was served"));
      }
      saveState();
    } catch (PancakeException e) {
      failure = e;
    } finally {
      try {
        store.close();
      } finally {
        stateDir.close();
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  // ---------------------------------------------------------------- requests

  public Optional<byte[]> get(byte[] key) {
    checkKey(key);
    Object result = submit(Op.GET, keys.slotOf(key), null, null);
    return result == ABSENT ? Optional.empty() : Optional.of((byte[]) result);
  }

  public void put(byte[] key, byte[] value) {
    checkKey(key);
    checkValue(value);
    submit(Op.PUT, keys.bind(key), value.clone(), null);
  }

  public boolean update(byte[] key, UnaryOperator<byte[]> merge) {
    checkKey(key);
    if (merge == null) {
      throw new IllegalArgumentException("merge must not be null");
    }
    return (Boolean) submit(Op.UPDATE, keys.slotOf(key), null, merge);
  }

  public boolean delete(byte[] key) {
    checkKey(key);
    return (Boolean) submit(Op.DELETE, keys.slotOf(key), null, null);
  }

  private void checkKey(byte[] key) {
    if (key == null || key.length == 0) {
      throw new IllegalArgumentException("key must be non-empty");
    }
    if (key.length > codec.keySize) {
      throw new ValueTooLargeException("key of " + key.length + " bytes exceeds pancake.key.size = " + codec.keySize);
    }
  }

  private void checkValue(byte[] value) {
    if (value == null) {
      throw new IllegalArgumentException("value must not be null");
    }
    if (value.length > codec.valueSize) {
      throw new ValueTooLargeException("value of " + value.length + " bytes exceeds pancake.value.size = "
          + codec.valueSize + "; raise pancake.value.size (fixed when the state is created)");
    }
  }

  /**
   * Runs one request: exactly one batch is sent for it, whether or not the key exists. A key
   * without a slot has no replica to enqueue; the batch still goes out and the answer is "absent".
   */
  private Object submit(Op op, int keySlot, byte[] value, UnaryOperator<byte[]> merge) {
    if (!open.get()) {
      throw new PancakeException("the PANCAKE client is closed");
    }
    requestCount.increment();
    Request request = null;
    if (keySlot >= 0) {
      request = new Request(op, keySlot, plan.randomReplica(keySlot, random.get()), value, merge);
      queue.add(request);
    }
    RuntimeException own = null;
    try {
      runBatch();
    } catch (RuntimeException e) {
      own = e;
    }
    if (request == null) {
      if (own != null) {
        throw own;
      }
      return op == Op.GET ? ABSENT : Boolean.FALSE;
    }
    try {
      return request.done.join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      throw new PancakeException("request failed", cause);
    }
  }

  private void pacerBatch() {
    pacerBatchCount.increment();
    runBatch();
  }

  // ---------------------------------------------------------------- batches

  /** Builds and executes one batch of B accesses. */
  private void runBatch() {
    RandomGenerator rnd = random.get();
    int[] replicas = new int[batchSize];
    Request[] served = new Request[batchSize];
    for (int i = 0; i < batchSize; i++) {
      if (rnd.nextBoolean()) {          // real, with probability delta = 1/2
        Request r = queue.poll();
        if (r != null) {
          served[i] = r;
          replicas[i] = r.replica;
        } else {
          replicas[i] = plan.sampleReal(rnd);
        }
      } else {
        replicas[i] = plan.sampleFake(rnd);
      }
    }
    batchCount.increment();
    execute(replicas, served);
  }

  private void execute(int[] replicas, Request[] served) {
    int[] order = lockOrder(replicas);
    for (int s : order) {
      stripes[s].lock();
    }
    try {
      long[] written = readServeWrite(replicas, served);
      markWritten(replicas, written);
    } catch (RuntimeException e) {
      for (Request r : served) {
        if (r != null) {
          r.done.completeExceptionally(e);
        }
      }
      throw e;
    } finally {
      for (int i = order.length - 1; i >= 0; i--) {
        stripes[order[i]].unlock();
      }
    }
    for (Request r : served) {
      if (r != null) {
        r.done.complete(r.result);
      }
    }
  }

  private static int[] lockOrder(int[] replicas) {
    int[] s = new int[replicas.length];
    for (int i = 0; i < s.length; i++) {
      s[i] = Math.floorMod(Integer.hashCode(replicas[i]) * 0x9E3779B9, LOCK_STRIPES);
    }
    Arrays.sort(s);
    int distinct = 0;
    for (int i = 0; i < s.length; i++) {
      if (i == 0 || s[i] != s[i - 1]) {
        s[distinct++] = s[i];
      }
    }
    return Arrays.copyOf(s, distinct);
  }

  /**
   * Reads, serves and writes back one batch; returns, per position, the version of the
   * UpdateCache entry whose value was written there, or -1.
   */
  private long[] readServeWrite(int[] replicas, Request[] served) {
    int b = replicas.length;
    List<byte[]> labels = new ArrayList<>(b);
    for (int r : replicas) {
      labels.add(label(r));
    }
    List<byte[]> sealed = store.multiGet(labels);
    // decrypt each distinct replica once
    Map<Integer, ReplicaCodec.View> views = new LinkedHashMap<>();
    for (int i = 0; i < b; i++) {
      int r = replicas[i];
      if (!views.containsKey(r)) {
        views.put(r, open(r, labels.get(i), sealed.get(i)));
      }
    }
    for (int i = 0; i < b; i++) {
      Request req = served[i];
      if (req != null) {
        serve(req, views.get(req.replica));
      }
    }
    // write back: the cached value if the owner has an entry, else a re-encryption of what was read
    Map<Integer, byte[]> plaintexts = new LinkedHashMap<>();
    long[] versionOf = new long[b];
    Arrays.fill(versionOf, -1);
    List<byte[]> out = new ArrayList<>(b);
    for (int i = 0; i < b; i++) {
      int r = replicas[i];
      byte[] plain = plaintexts.get(r);
      if (plain == null) {
        int owner = plan.ownerOf[r];
        UpdateCache.Entry e = owner == ReplicaPlan.DUMMY ? null : cache.get(owner);
        if (e != null) {
          plain = codec.encode(e.value == null ? ReplicaCodec.ABSENT : ReplicaCodec.PRESENT, r, owner,
              keys.keyOf(owner), e.value);
          versionOf[i] = e.version;
        } else {
          plain = views.get(r).plaintext;
        }
        plaintexts.put(r, plain);
      }
      out.add(aead.encrypt(plain, labels.get(i)));
    }
    store.multiPut(labels, out);
    return versionOf;
  }

  private void markWritten(int[] replicas, long[] versions) {
    for (int i = 0; i < replicas.length; i++) {
      if (versions[i] >= 0) {
        int r = replicas[i];
        cache.markWritten(plan.ownerOf[r], versions[i], plan.indexOf[r]);
      }
    }
  }

  /** Decrypts replica {@code r} and checks that it is what the plan says it is. */
  private ReplicaCodec.View open(int r, byte[] label, byte[] sealed) {
    if (sealed == null) {
      throw new IntegrityException("the store has lost a replica label: store " + storeDescription
          + " was wiped or is not the one this state was created on");
    }
    ReplicaCodec.View view = codec.view(aead.decrypt(sealed, label));
    int owner = plan.ownerOf[r];
    if (view.replicaSlot() != r || view.keySlot() != owner
        || (owner == ReplicaPlan.DUMMY) != (view.kind() == ReplicaCodec.DUMMY)) {
      throw new IntegrityException("a replica holds another replica's data (its identity does not match the plan)");
    }
    if (view.kind() == ReplicaCodec.PRESENT && !Arrays.equals(view.key(), keys.keyOf(owner))) {
      throw new IntegrityException("a replica holds another key's value");
    }
    return view;
  }

  /** Applies one dequeued request against replica {@code view} and the UpdateCache. */
  private void serve(Request req, ReplicaCodec.View view) {
    int slot = req.keySlot;
    switch (req.op) {
      case GET: {
        UpdateCache.Entry e = cache.get(slot);
        byte[] v = e != null ? e.value : view.valueOrNull();
        req.result = v == null ? ABSENT : v.clone();
        break;
      }
      case PUT: {
        int replicas = plan.replicaCount(slot);
        cache.compute(slot, (k, e) -> new UpdateCache.Entry(req.value, versions.incrementAndGet(), replicas));
        req.result = Boolean.TRUE;
        break;
      }
      case DELETE: {
        int replicas = plan.replicaCount(slot);
        boolean[] existed = new boolean[1];
        cache.compute(slot, (k, e) -> {
          byte[] current = e != null ? e.value : view.valueOrNull();
          if (current == null) {
            return e;
          }
          existed[0] = true;
          return new UpdateCache.Entry(null, versions.incrementAndGet(), replicas);
        });
        req.result = existed[0];
        break;
      }
      case UPDATE: {
        int replicas = plan.replicaCount(slot);
        boolean[] existed = new boolean[1];
        try {
          cache.compute(slot, (k, e) -> {
            byte[] current = e != null ? e.value : view.valueOrNull();
            if (current == null) {
              return e;
            }
            byte[] next = req.merge.apply(current.clone());
            checkValue(next);
            existed[0] = true;
            return new UpdateCache.Entry(next, versions.incrementAndGet(), replicas);
          });
          req.result = existed[0];
        } catch (RuntimeException e) {
          // a failing merge fails its own request only; the batch still goes out
          req.done.completeExceptionally(e);
          req.result = null;
        }
        break;
      }
      default:
        throw new IllegalStateException(String.valueOf(req.op));
    }
  }

  // ---------------------------------------------------------------- introspection

  /** Counters for benchmarks and tests. */
  public Stats stats() {
    return new Stats(requestCount.sum(), batchCount.sum(), pacerBatchCount.sum(), cache.size(),
        cache.valueBytes(), queue.size(), keys.boundKeys(), plan.keySlots, plan.realReplicas);
  }

  /** A snapshot of the engine's counters. */
  public record Stats(long requests, long batches, long pacerBatches, int updateCacheEntries,
      long updateCacheBytes, int queued, int keys, int capacity, int realReplicas) {}

  ReplicaPlan plan() {
    return plan;
  }

  KvStore store() {
    return store;
  }

  /** Decrypts replica {@code r} straight from the store (tests: check replicas after quiescence). */
  byte[] readReplicaValue(int r) {
    byte[] label = label(r);
    return open(r, label, store.get(label)).valueOrNull();
  }

  int slotOf(byte[] key) {
    return keys.slotOf(key);
  }

  /** Sends one batch with no request of its own (tests, and the pacer). */
  void idleBatch() {
    runBatch();
  }
}

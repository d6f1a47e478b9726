package io.pancakej.store;

import io.pancakej.testing.KvStoreContractTest;

class MemoryStoreTest extends KvStoreContractTest {
  @Override
  protected KvStore newStore() {
    return new MemoryStore();
  }
}

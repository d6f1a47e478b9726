package io.pancakej.baseline;

import io.pancakej.KvClient;
import io.pancakej.store.MemoryStore;
import io.pancakej.testing.KvClientContractTest;

class InsecureClientTest extends KvClientContractTest {
  @Override
  protected KvClient newClient() {
    return InsecureClient.builder().store(new MemoryStore()).build();
  }
}

package dev.cairn.bench;

public final class BenchMain {
  public static void main(String[] args) {
    System.out.println("usage");
  }
}

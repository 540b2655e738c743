import java.util.ArrayList;

public class MemoryBomb {
    public static void main(String[] args) {
        ArrayList<long[]> blocks = new ArrayList<>();
        while (true) blocks.add(new long[1 << 20]);
    }
}
